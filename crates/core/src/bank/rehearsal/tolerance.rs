//! The decision on a tolerance (the list itself is `crate::domain::tolerance`, below the gate that records them):
//! [`judge`] turns what was tolerated into the WARNING (sandbox profile) or the refusal production gives
//! (production profile).

use super::Profile;
use crate::domain::refusal::{truncate_text, Refusal, TppMessage};
pub use crate::domain::tolerance::{Tolerance, Tolerated};

/// The one place a tolerance is decided: under the sandbox profile the WARNING, under production the
/// refusal production gives, whose text says that the sandbox profile accepts it.
pub fn judge(profile: Profile, tolerated: &Tolerated) -> Result<TppMessage, Refusal> {
    match profile {
        Profile::Sandbox => Ok(tolerated.warning.clone()),
        Profile::Production => {
            let said = tolerated.warning.text.as_deref().unwrap_or_default();
            Err(Refusal::new(
                tolerated.tolerance.refusal_code(),
                tolerated.warning.path.as_deref(),
                truncate_text(format!(
                    "Refused under the production profile ({}): {said} The sandbox profile accepts it.",
                    tolerated.tolerance.id()
                )),
            ))
        }
    }
}

/// Judges every tolerated thing of one request: the WARNINGs to answer with, or the first refusal.
pub fn judge_all(profile: Profile, tolerated: &[Tolerated]) -> Result<Vec<TppMessage>, Refusal> {
    tolerated.iter().map(|t| judge(profile, t)).collect()
}

/// Production's answer to a TPP's call of the mock-data API (`/v1/sandbox/*`, `path` as sent): there is
/// no such endpoint, as for an unknown path, and the text names the tolerance as every other refusal of
/// the production profile does (docs/rehearsal.md#tolerances).
pub fn no_mock_data_api(method: &str, path: &str) -> Refusal {
    let tolerance = Tolerance::MockDataApi;
    Refusal::new(
        tolerance.refusal_code(),
        None,
        format!(
            "There is no endpoint {method} {path} in production ({}: {}). The sandbox profile accepts it.",
            tolerance.id(),
            tolerance.production()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::refusal::Code;

    fn tolerated() -> Tolerated {
        Tolerated::new(
            Tolerance::PemArmouredCertificate,
            Code::FormatError,
            "TPP-Signature-Certificate",
            "came with PEM armour.",
        )
    }

    #[test]
    fn the_sandbox_profile_answers_the_warning() {
        assert_eq!(
            judge(Profile::Sandbox, &tolerated()),
            Ok(tolerated().warning)
        );
    }

    #[test]
    fn the_production_profile_refuses_and_says_the_sandbox_accepts_it() {
        let refusal = judge(Profile::Production, &tolerated()).unwrap_err();
        assert_eq!(refusal.code, Code::FormatError);
        assert_eq!(refusal.path.as_deref(), Some("TPP-Signature-Certificate"));
        assert!(refusal.text.contains("came with PEM armour."));
        assert!(refusal.text.ends_with("The sandbox profile accepts it."));
    }

    #[test]
    fn production_has_no_mock_data_api() {
        let refusal = no_mock_data_api("GET", "/v1/sandbox/customers");
        assert_eq!((refusal.status(), refusal.code), (404, Code::NotFound));
        assert_eq!(refusal.path, None);
        assert!(refusal.text.starts_with(
            "There is no endpoint GET /v1/sandbox/customers in production (mock-data-api: "
        ));
    }
}
