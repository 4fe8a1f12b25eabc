//! What a TPP's request presets for an SCA it may start (docs/interface.md#strong-customer-authentication-and-tpp-sessions):
//! the TPP-Session-ID the SCA is valid in, the TPP-Redirect-URI the PSU returns to, the PSU's identity, the
//! preferred method, the redirect preference and the brand shown on the bank's page. The HTTP side reads
//! these headers once per request; the rules that need them are here, in the core.

use super::authorisation::{AuthMethod, Purpose};
use super::engine::StartSca;
use crate::signing::verifier::VerifiedTpp;

/// The SCA headers of one request, each as sent (trimmed; absent when missing or empty).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScaPresets {
    /// TPP-Session-ID: an SCA done in it is valid for an hour inside it.
    pub tpp_session_id: Option<String>,
    /// TPP-Redirect-URI: where the bank's pages send the PSU back.
    pub redirect_uri: Option<String>,
    /// X-PSU-IDENTITY: the PSU's national identity number, which skips the identify step.
    pub psu_identity: Option<String>,
    /// X-PSU-AuthMethod-Preferred.
    pub preferred_method: Option<String>,
    /// TPP-Redirect-Preferred: `false` asks for the biometric variant in the bank's app.
    pub redirect_preferred: Option<String>,
    /// TPP-Brand-Logging-Information, shown on the bank's page.
    pub tpp_brand: Option<String>,
}

impl ScaPresets {
    /// The authorisation these presets start for `tpp`. The session and redirect must have been required
    /// before (an empty one is never stored: the callers refuse its absence first).
    pub fn start(
        &self,
        tpp: &VerifiedTpp,
        purpose: Purpose,
        customer_id: Option<String>,
        agreement_id: Option<String>,
    ) -> StartSca {
        StartSca {
            tpp_id: tpp.tpp_id(),
            tpp_name: tpp.tpp_name(),
            tpp_session_id: self.tpp_session_id.clone().unwrap_or_default(),
            redirect_uri: self.redirect_uri.clone().unwrap_or_default(),
            purpose,
            preset_identity: self.psu_identity.clone(),
            preset_customer_id: customer_id,
            preset_agreement_id: agreement_id,
            preferred_method: self.preferred_method.as_deref().and_then(AuthMethod::parse),
            biometric_in_app: self.redirect_preferred.as_deref() == Some("false"),
        }
    }
}

/// The bundled persona `name`'s certificate (`aisp`, `pisp`, `aisp-pisp`, …) as the signature gate hands
/// it over, for tests of rules that read the TPP.
#[cfg(test)]
pub(crate) fn test_tpp(name: &str) -> VerifiedTpp {
    use crate::signing::certificate::TppCertificate;
    use crate::signing::test_credentials::TPP_CERTIFICATES;
    use crate::signing::trust::{CachedCertificate, ChainVerdict};
    let (_, _, pem, _) = TPP_CERTIFICATES
        .iter()
        .find(|c| c.0 == name)
        .expect("a bundled persona");
    let der = crate::signing::signer::pem_to_der(pem).expect("a PEM certificate");
    VerifiedTpp {
        certificate: std::sync::Arc::new(CachedCertificate {
            certificate: Ok(TppCertificate::from_der(&der).expect("a certificate")),
            chain: ChainVerdict::Trusted {
                ca_subject: "test CA".into(),
            },
            issuing_ca_not_after: None,
        }),
        tolerated: Vec::new(),
    }
}
