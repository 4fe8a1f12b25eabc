//! Copy as curl, and as a script: commands that still work a minute later, because they sign at run time
//! with `xs2a-sandbox sign` (a Date header expires after 60 s) and then call curl with exactly the headers
//! it printed. The script carries the persona's certificate and key (test credentials) so it runs
//! anywhere the `xs2a-sandbox` binary is; the one-line curl form needs the persona's files in a directory.

use super::draft::Draft;
use crate::workbench::personas::{Source, StoredPersona};

/// Quotes a word for a POSIX shell.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// The `sign` arguments and the curl arguments shared by both forms.
fn parts(draft: &Draft, url: &str) -> (Vec<String>, Vec<String>) {
    let method = draft.method.trim().to_ascii_uppercase();
    let mut sign = vec![format!("-X {method}"), format!("--url {}", quote(url))];
    let mut curl = vec![format!("-X {method}")];
    for (name, value) in draft.headers.iter().filter(|(n, _)| !n.trim().is_empty()) {
        let header = quote(&format!("{}: {}", name.trim(), value.trim()));
        sign.push(format!("-H {header}"));
    }
    curl.push("-H @-".to_owned());
    let has_body = draft.body.as_deref().is_some_and(|b| !b.trim().is_empty());
    if has_body {
        curl.push("-H 'Content-Type: application/json'".to_owned());
    }
    (sign, curl)
}

/// The one-line form: sign, pipe the headers into curl.
pub fn curl(draft: &Draft, url: &str, persona: &StoredPersona) -> String {
    let (dir, note) = match persona.source {
        Source::Bundled => (
            format!(
                "fixtures/certs/{}",
                persona.id.trim_start_matches("bundled-")
            ),
            None,
        ),
        _ => (
            persona.id.clone(),
            Some("a directory holding this persona's cert.pem and key.pem"),
        ),
    };
    let (mut sign, mut curl) = parts(draft, url);
    if let Some(body) = draft.body.as_deref().filter(|b| !b.trim().is_empty()) {
        sign.push(format!("--data {}", quote(body)));
        curl.push(format!("--data-binary {}", quote(body)));
    }
    let command = format!(
        "xs2a-sandbox sign --cert-dir {} {} \\\n  | curl -sS {} {}",
        quote(&dir),
        sign.join(" "),
        curl.join(" "),
        quote(url)
    );
    match note {
        Some(note) => format!("# --cert-dir {dir}: {note}\n{command}"),
        None => command,
    }
}

/// The script form: self-contained, re-signing at every run.
pub fn script(draft: &Draft, url: &str, persona: &StoredPersona) -> String {
    let (mut sign, mut curl) = parts(draft, url);
    let body = draft.body.as_deref().filter(|b| !b.trim().is_empty());
    if body.is_some() {
        sign.push("--data-file \"$dir/body.json\"".to_owned());
        curl.push("--data-binary @\"$dir/body.json\"".to_owned());
    }
    let mut text = String::from(
        "#!/bin/sh\n# Made by the xs2a-sandbox workbench. Signs at run time (a Date header is valid for 60 s),\n\
         # then sends with curl. TEST credentials only.\nset -eu\ndir=$(mktemp -d)\ntrap 'rm -rf \"$dir\"' EXIT\n",
    );
    text.push_str(&format!(
        "cat > \"$dir/cert.pem\" <<'PEM'\n{}\nPEM\ncat > \"$dir/key.pem\" <<'PEM'\n{}\nPEM\n",
        persona.certificate_pem.trim(),
        persona.private_key_pem.trim()
    ));
    if let Some(body) = body {
        // The exact bytes: the Digest is over them.
        text.push_str(&format!(
            "printf '%s' {} > \"$dir/body.json\"\n",
            quote(body)
        ));
    }
    text.push_str(&format!(
        "xs2a-sandbox sign --cert-dir \"$dir\" {} > \"$dir/headers.txt\"\ncurl -sS {} {} < \"$dir/headers.txt\"\n",
        sign.join(" "),
        curl.join(" "),
        quote(url)
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn persona(source: Source) -> StoredPersona {
        StoredPersona {
            id: "bundled-aisp".into(),
            name: "P".into(),
            source,
            certificate_pem: "-----BEGIN CERTIFICATE-----\nX\n-----END CERTIFICATE-----".into(),
            private_key_pem: "-----BEGIN PRIVATE KEY-----\nY\n-----END PRIVATE KEY-----".into(),
            psu_id: None,
            psu_corporate_id: None,
            tpp_session_id: None,
        }
    }

    fn draft() -> Draft {
        Draft {
            persona_id: "bundled-aisp".into(),
            method: "post".into(),
            path: "/v1/x".into(),
            query: None,
            headers: vec![("PSU-ID".into(), "it's".into())],
            body: Some("{\"a\":1}".into()),
        }
    }

    #[test]
    fn curl_signs_then_pipes_the_headers_and_quotes_safely() {
        let text = curl(
            &draft(),
            "http://127.0.0.1:1/v1/x",
            &persona(Source::Bundled),
        );
        assert!(text.starts_with("xs2a-sandbox sign --cert-dir 'fixtures/certs/aisp' -X POST"));
        assert!(text.contains(r"-H 'PSU-ID: it'\''s'"));
        assert!(text.contains("| curl -sS -X POST -H @- -H 'Content-Type: application/json'"));
        assert!(text.contains("--data-binary '{\"a\":1}'"));
    }

    #[test]
    fn the_script_carries_the_credentials_and_the_exact_body() {
        let text = script(
            &draft(),
            "http://127.0.0.1:1/v1/x",
            &persona(Source::Issued),
        );
        assert!(text.contains("-----BEGIN PRIVATE KEY-----"));
        assert!(text.contains("printf '%s' '{\"a\":1}' > \"$dir/body.json\""));
        assert!(text.contains("--data-file \"$dir/body.json\""));
        assert!(text.contains("< \"$dir/headers.txt\""));
    }
}
