//! Which TPP recorded a flow: the certificates its signed requests carried (TPP-Signature-Certificate),
//! each named by its organisation and its SHA-256 fingerprint. A replay signs with a certificate of its
//! own; when that is not the recording's, psu-ids, consents and the roles a request needs belong to
//! another TPP, and the replay says so rather than leave the differences to explain themselves.

use serde::{Deserialize, Serialize};
use xs2a_core::signing::certificate::{decode_certificate_header, TppCertificate};

/// One TPP of a recording, as its certificate names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Recorder {
    /// The certificate's organisation (O), or its common name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The certificate's organizationIdentifier (`PSDNO-FSA-…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub organisation_id: Option<String>,
    /// The certificate's SHA-256 fingerprint as `openssl x509 -noout -fingerprint -sha256` prints it.
    pub certificate_sha256: String,
}

impl Recorder {
    pub fn of(certificate: &TppCertificate) -> Recorder {
        Recorder {
            name: certificate
                .organization
                .clone()
                .or_else(|| certificate.common_name.clone()),
            organisation_id: certificate.organization_identifier.clone(),
            certificate_sha256: certificate.sha256_fingerprint(),
        }
    }

    /// `Sandbox AISP AS (organisation PSDNO-FSA-…, certificate SHA-256 5A:41:…)`.
    pub fn describe(&self) -> String {
        let mut about = Vec::new();
        if let Some(id) = &self.organisation_id {
            about.push(format!("organisation {id}"));
        }
        about.push(format!("certificate SHA-256 {}", self.certificate_sha256));
        format!(
            "{} ({})",
            self.name.as_deref().unwrap_or("a TPP"),
            about.join(", ")
        )
    }
}

/// The TPPs whose certificates signed these requests (each a request's headers), in the order they first
/// did; requests without a readable certificate (the bank's pages, unsigned calls) name none.
pub fn of_requests<'a>(
    requests: impl IntoIterator<Item = &'a [(String, String)]>,
) -> Vec<Recorder> {
    let mut recorders: Vec<Recorder> = Vec::new();
    for headers in requests {
        let Some((_, value)) = headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("tpp-signature-certificate"))
        else {
            continue;
        };
        let Some(certificate) = decode_certificate_header(value)
            .ok()
            .and_then(|decoded| TppCertificate::from_der(&decoded.der).ok())
        else {
            continue;
        };
        let recorder = Recorder::of(&certificate);
        if !recorders
            .iter()
            .any(|known| known.certificate_sha256 == recorder.certificate_sha256)
        {
            recorders.push(recorder);
        }
    }
    recorders
}

/// What a replay signing as `replaying` says about the recording's TPPs, when it differs from them: another
/// certificate than the one that recorded, or one certificate for a recording made by several TPPs.
pub fn mismatch(recorded: &[Recorder], replaying: &Recorder) -> Option<String> {
    match recorded {
        [] => None,
        [one] if one.certificate_sha256 == replaying.certificate_sha256 => None,
        [one] => Some(format!(
            "the certificate differs from the recording's: the flow was recorded by {}, the replay signs as {}. \
             psu-ids, consents and the roles a request needs belong to one TPP, so answers can differ for that \
             reason alone; replay with the recording's certificate to reproduce it",
            one.describe(),
            replaying.describe()
        )),
        several => Some(format!(
            "the flow was recorded by {} TPPs ({}), and the replay signs every step as {}: answers to the \
             other TPPs' requests can differ for that reason alone",
            several.len(),
            several
                .iter()
                .map(Recorder::describe)
                .collect::<Vec<_>>()
                .join("; "),
            replaying.describe()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::engine::general_purpose::STANDARD;
    use base64::Engine;
    use xs2a_core::signing::certificate::pem_blocks;

    const AISP: &str = include_str!("../../../../fixtures/certs/aisp/cert.pem");
    const AISP_PISP: &str = include_str!("../../../../fixtures/certs/aisp-pisp/cert.pem");

    fn header(pem: &str) -> Vec<(String, String)> {
        vec![
            ("date".into(), "x".into()),
            (
                "TPP-Signature-Certificate".into(),
                STANDARD.encode(&pem_blocks(pem).unwrap()[0]),
            ),
        ]
    }

    #[test]
    fn each_certificate_is_named_once_in_the_order_it_first_signed() {
        let requests = [header(AISP_PISP), vec![], header(AISP), header(AISP_PISP)];
        let recorders = of_requests(requests.iter().map(Vec::as_slice));
        let names: Vec<_> = recorders.iter().map(|r| r.name.as_deref()).collect();
        assert_eq!(
            names,
            [Some("Sandbox AISP PISP AS"), Some("Sandbox AISP AS")]
        );
        assert!(recorders[0]
            .organisation_id
            .as_deref()
            .is_some_and(|id| id.starts_with("PSDNO-FSA-")));
        assert_eq!(recorders[0].certificate_sha256.len(), 32 * 3 - 1);
    }

    #[test]
    fn a_replay_with_another_certificate_says_so_and_the_same_one_says_nothing() {
        let of = |pem: &str| of_requests([header(pem).as_slice()]).remove(0);
        let (recording, other) = (of(AISP_PISP), of(AISP));
        assert_eq!(mismatch(std::slice::from_ref(&recording), &recording), None);
        assert_eq!(mismatch(&[], &other), None);
        let said = mismatch(std::slice::from_ref(&recording), &other).unwrap();
        assert!(
            said.starts_with("the certificate differs from the recording's")
                && said.contains(&recording.certificate_sha256)
                && said.contains(&other.certificate_sha256),
            "{said}"
        );
        let several = mismatch(&[recording, other.clone()], &other).unwrap();
        assert!(several.contains("recorded by 2 TPPs"), "{several}");
    }
}
