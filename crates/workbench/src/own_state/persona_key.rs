//! A persona's certificate with its private key, as a folder `replay --cert-dir` reads (`cert.pem`,
//! `key.pem`, and a README saying whose key it is), packed as one tar archive to download. Handed out for
//! the keys the sandbox ships (the bundled personas: public, in the repository) or made (issued personas:
//! test keys); an imported persona's key came from its user, who has it, so the workbench does not send it
//! back out.

use super::personas::{get, Source};
use time::OffsetDateTime;
use xs2a_core::domain::refusal::{Code, CoreResult, Refusal};
use xs2a_core::store::Store;

/// The archive and the name to save it under.
pub struct CertDir {
    /// `<persona id>.cert-dir.tar`; it unpacks to the folder `<persona id>/`.
    pub file_name: String,
    pub bytes: Vec<u8>,
}

/// What the README says of the key, by where it came from.
fn warning(source: Source) -> &'static str {
    match source {
        Source::Bundled => {
            "TEST ONLY: THIS PRIVATE KEY IS PUBLIC. It ships with xs2a-sandbox (in its repository's\n\
             fixtures/certs/), so anyone can sign as this TPP. Use it against a sandbox only, never\n\
             anywhere real.\n"
        }
        _ => {
            "TEST ONLY: a test key xs2a-sandbox made when it issued this persona's certificate. Anyone\n\
             with this file can sign as this TPP in any sandbox that trusts its issuer (the bundled test\n\
             CA, whose own key is public). Use it against a sandbox only, never anywhere real.\n"
        }
    }
}

/// Persona `id`'s certificate and key as a `--cert-dir` archive dated `now`; 409 for an imported persona.
pub fn cert_dir(store: &Store, id: &str, now: OffsetDateTime) -> CoreResult<CertDir> {
    let persona = get(store, id)?;
    if persona.source == Source::Imported {
        return Err(Refusal::new(
            Code::Conflict,
            Some("personaId"),
            "The key of an imported persona is not handed out: it is the one you imported, so use that \
             file. The workbench gives out only the keys it ships (bundled personas) or made (issued ones).",
        ));
    }
    let readme = format!(
        "{}\n\
         {} ({})\n\n\
         cert.pem  the TPP's certificate\n\
         key.pem   its private key\n\n\
         This folder is a --cert-dir for xs2a-sandbox, e.g. to replay a flow the workbench exported:\n\n\
         \x20 xs2a-sandbox replay JOURNEY.flow.json --fixture JOURNEY.state.json --cert-dir {} --junit JOURNEY.junit.xml\n",
        warning(persona.source),
        ascii(&persona.name),
        persona.id,
        persona.id,
    );
    let mut archive = tar::Builder::new(Vec::new());
    // tar warns of entries dated 0, so a clock before 1970 still dates them 1.
    let mtime = now.unix_timestamp().max(1) as u64;
    let folder = &persona.id;
    append(&mut archive, &format!("{folder}/"), 0o755, mtime, b"");
    let files = [
        ("README.txt", 0o644, readme.as_bytes()),
        ("cert.pem", 0o644, persona.certificate_pem.as_bytes()),
        ("key.pem", 0o600, persona.private_key_pem.as_bytes()),
    ];
    for (name, mode, contents) in files {
        append(
            &mut archive,
            &format!("{folder}/{name}"),
            mode,
            mtime,
            contents,
        );
    }
    Ok(CertDir {
        file_name: format!("{}.cert-dir.tar", persona.id),
        bytes: archive
            .into_inner()
            .expect("writing to memory does not fail"),
    })
}

/// Adds one POSIX ustar entry: a directory when `name` ends in `/`, else a regular file. Plain ustar
/// (no GNU extensions), which `tar -xf` unpacks on Linux, macOS and Windows 10 or newer alike.
fn append(archive: &mut tar::Builder<Vec<u8>>, name: &str, mode: u32, mtime: u64, contents: &[u8]) {
    let mut header = tar::Header::new_ustar();
    header.set_entry_type(if name.ends_with('/') {
        tar::EntryType::Directory
    } else {
        tar::EntryType::Regular
    });
    header.set_mode(mode);
    header.set_mtime(mtime);
    header.set_size(contents.len() as u64);
    archive
        .append_data(&mut header, name, contents)
        .expect("a persona id is a short ASCII name and memory takes any write");
}

/// The text with anything beyond ASCII as `?`: the archive stays plain ASCII, which a text download
/// (the desktop's save dialog takes text) carries byte for byte.
fn ascii(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_ascii() { c } else { '?' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::own_state::personas::{import, issue, IssueRequest};

    fn now() -> OffsetDateTime {
        time::macros::datetime!(2026-06-01 12:00 UTC)
    }

    #[test]
    fn a_bundled_persona_comes_with_its_key_and_the_warning_that_it_is_public() {
        let store = Store::temporary().unwrap();
        let dir = cert_dir(&store, "bundled-aisp-pisp", now()).unwrap();
        assert_eq!(dir.file_name, "bundled-aisp-pisp.cert-dir.tar");
        assert!(dir.bytes.is_ascii());
        let mut entries: Vec<(String, u32, u64)> = tar::Archive::new(dir.bytes.as_slice())
            .entries()
            .unwrap()
            .map(|entry| {
                let entry = entry.unwrap();
                let header = entry.header();
                let name = entry.path().unwrap().to_string_lossy().into_owned();
                (name, header.mode().unwrap(), header.size().unwrap())
            })
            .collect();
        entries
            .iter_mut()
            .for_each(|entry| entry.2 = entry.2.min(1));
        assert_eq!(
            entries,
            [
                ("bundled-aisp-pisp/".to_owned(), 0o755, 0),
                ("bundled-aisp-pisp/README.txt".to_owned(), 0o644, 1),
                ("bundled-aisp-pisp/cert.pem".to_owned(), 0o644, 1),
                ("bundled-aisp-pisp/key.pem".to_owned(), 0o600, 1),
            ],
            "a folder of three non-empty files, the key readable by its owner only"
        );
        let text = String::from_utf8(dir.bytes).unwrap();
        for part in [
            "bundled-aisp-pisp/cert.pem",
            "bundled-aisp-pisp/key.pem",
            "THIS PRIVATE KEY IS PUBLIC",
            "-----BEGIN PRIVATE KEY-----",
            "--cert-dir bundled-aisp-pisp",
        ] {
            assert!(text.contains(part), "{part}");
        }
    }

    #[test]
    fn an_issued_persona_comes_with_its_key_and_an_imported_one_is_refused() {
        let store = Store::temporary().unwrap();
        let request: IssueRequest =
            serde_json::from_value(serde_json::json!({"name": "Fjørd TPP", "roles": ["PSP_AI"]}))
                .unwrap();
        let issued = issue(&store, request, now()).unwrap();
        let dir = cert_dir(&store, &issued.id, now()).unwrap();
        let text = String::from_utf8(dir.bytes).unwrap();
        assert!(text.contains("a test key xs2a-sandbox made") && text.contains("Fj?rd TPP"));
        assert!(text.contains(issued.private_key_pem.trim()));

        let imported = import(
            &store,
            "Mine",
            &issued.certificate_pem,
            &issued.private_key_pem,
        )
        .unwrap();
        let refused = cert_dir(&store, &imported.id, now()).err().unwrap();
        assert_eq!(refused.code, Code::Conflict);
        assert_eq!(
            cert_dir(&store, "nobody", now()).err().unwrap().code,
            Code::ResourceUnknown
        );
    }
}
