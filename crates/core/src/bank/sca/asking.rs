//! Asking for SCA (docs/interface.md#strong-customer-authentication-and-tpp-sessions): a request that needs
//! it starts an authorisation with what it presets and is refused with a tppMessage saying why; the HTTP
//! side answers that refusal with 401 and `_links.scaRedirect` to the authorisation's page.

use super::authorisation::{Authorisation, Purpose};
use super::engine;
use super::presets::ScaPresets;
use crate::domain::refusal::{Code, CoreResult, Refusal};
use crate::signing::verifier::VerifiedTpp;
use crate::store::Store;
use time::OffsetDateTime;

/// What to start and why.
pub struct ScaNeed {
    pub purpose: Purpose,
    /// The code of the refusal that asks for SCA.
    pub code: Code,
    /// Why SCA is needed, the refusal's first sentence.
    pub reason: String,
    pub customer_id: Option<String>,
    pub agreement_id: Option<String>,
}

/// An authorisation started because a request needs SCA, and the refusal that sends the PSU to it.
pub struct Asked {
    pub authorisation: Authorisation,
    pub refusal: Refusal,
}

/// Starts the authorisation `need` asks for. Without TPP-Redirect-URI and TPP-Session-ID the bank cannot
/// send the PSU back, so their absence is the refusal (400 HTTP_HEADER_REQUIRED, with the reason).
pub fn ask(
    store: &Store,
    tpp: &VerifiedTpp,
    presets: &ScaPresets,
    need: ScaNeed,
    now: OffsetDateTime,
) -> CoreResult<Asked> {
    if presets.redirect_uri.is_none() {
        return Err(Refusal::new(
            Code::HttpHeaderRequired,
            Some("TPP-Redirect-URI"),
            format!(
                "{} To start SCA the request needs TPP-Redirect-URI (send it on every request).",
                need.reason
            ),
        ));
    }
    if presets.tpp_session_id.is_none() {
        return Err(Refusal::new(
            Code::HttpHeaderRequired,
            Some("TPP-Session-ID"),
            format!(
                "{} To start SCA the request needs TPP-Session-ID: an SCA is valid for one hour inside it.",
                need.reason
            ),
        ));
    }
    let start = presets.start(tpp, need.purpose, need.customer_id, need.agreement_id);
    let authorisation = engine::start(store, start, now)?;
    let exemption = match authorisation.session_sca_at {
        Some(at) => format!(
            " The PSU completed SCA in this TPP-Session-ID at {at}, less than an hour ago, so no new SCA is \
             asked (docs/interface.md#strong-customer-authentication-and-tpp-sessions): the bank's pages \
             skip authentication and only ask for the choices this flow needs."
        ),
        None => String::new(),
    };
    let refusal = Refusal::new(
        need.code,
        None,
        format!(
            "{}{exemption} Send the PSU to the scaRedirect link.",
            need.reason
        ),
    );
    Ok(Asked {
        authorisation,
        refusal,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::mock::seed;
    use crate::bank::sca::presets::test_tpp;
    use time::macros::{date, datetime};

    const NOW: OffsetDateTime = datetime!(2026-03-16 10:00 UTC);

    fn need() -> ScaNeed {
        ScaNeed {
            purpose: Purpose::Consent,
            code: Code::ConsentInvalid,
            reason: "The consent needs SCA.".into(),
            customer_id: None,
            agreement_id: None,
        }
    }

    fn presets() -> ScaPresets {
        ScaPresets {
            tpp_session_id: Some("session-1".into()),
            redirect_uri: Some("https://tpp.example/cb".into()),
            ..ScaPresets::default()
        }
    }

    #[test]
    fn starting_sca_needs_the_redirect_and_the_session_and_says_why() {
        let store = Store::temporary().unwrap();
        let tpp = test_tpp("aisp");
        for (missing, header) in [(0, "TPP-Redirect-URI"), (1, "TPP-Session-ID")] {
            let mut presets = presets();
            if missing == 0 {
                presets.redirect_uri = None;
            } else {
                presets.tpp_session_id = None;
            }
            let Err(refusal) = ask(&store, &tpp, &presets, need(), NOW) else {
                panic!("{header} missing was not refused")
            };
            assert_eq!(
                (refusal.status(), refusal.code, refusal.path.as_deref()),
                (400, Code::HttpHeaderRequired, Some(header))
            );
            assert!(
                refusal
                    .text
                    .starts_with("The consent needs SCA. To start SCA"),
                "{}",
                refusal.text
            );
        }
    }

    #[test]
    fn asking_starts_an_authorisation_with_the_presets_and_refuses_with_the_reason() {
        let store = Store::temporary().unwrap();
        seed::initialize(&store, date!(2026 - 03 - 16)).unwrap();
        let mut presets = presets();
        presets.psu_identity = Some("01017012345".into());
        presets.redirect_preferred = Some("false".into());
        let asked = ask(&store, &test_tpp("aisp"), &presets, need(), NOW).unwrap();
        assert_eq!(asked.refusal.code, Code::ConsentInvalid);
        assert_eq!(
            asked.refusal.text,
            "The consent needs SCA. Send the PSU to the scaRedirect link."
        );
        let auth = asked.authorisation;
        assert_eq!(auth.purpose, Purpose::Consent);
        assert_eq!(auth.tpp_session_id, "session-1");
        assert_eq!(auth.preset_identity.as_deref(), Some("01017012345"));
        assert!(auth.biometric_in_app);
    }
}
