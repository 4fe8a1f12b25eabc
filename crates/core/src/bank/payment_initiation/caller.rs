//! Who is initiating a payment or calling a signing basket (docs/reference/payments.md#payments-signing-baskets-and-batch-runs):
//! the TPP must hold the PSD2 role PSP_PI, send the headers the bank requires on these calls (x-accept-fix,
//! TPP-Session-ID, TPP-Redirect-URI, PSU-IP-Address) and name the PSU by PSU-ID (or, for payment creation,
//! X-PSU-IDENTITY; or neither, with PSU-Context, for the single-SCA journey). The HTTP side reads the headers
//! once into a [`Caller`]; these are the rules over it.

use super::Approval;
use crate::bank::sca::authorisation::Purpose;
use crate::bank::sca::presets::ScaPresets;
use crate::bank::sca::session::{self, SessionState};
use crate::bank::sca::{engine, psu, Context};
use crate::domain::fix::Fix;
use crate::domain::refusal::{Code, CoreResult, Refusal, TppMessage};
use crate::signing::qc_statements::Psd2Role;
use crate::signing::verifier::VerifiedTpp;
use crate::store::Store;
use time::OffsetDateTime;

/// The caller of a payment or basket call: the verified TPP and the headers the rules read, each as sent
/// (trimmed; absent when missing or empty).
#[derive(Debug, Clone)]
pub struct Caller {
    pub tpp: VerifiedTpp,
    /// PSU-ID: a psu-id this TPP obtained at the end of an SCA.
    pub psu_id: Option<String>,
    /// PSU-Corporate-ID.
    pub psu_corporate_id: Option<String>,
    /// PSU-Context: with neither PSU-ID nor X-PSU-IDENTITY, it starts the single-SCA journey.
    pub psu_context: Option<String>,
    /// PSU-IP-Address.
    pub psu_ip_address: Option<String>,
    /// x-accept-fix.
    pub accept_fix: Option<String>,
    /// What the request presets for the SCA it starts (session, redirect, X-PSU-IDENTITY, …).
    pub sca: ScaPresets,
}

/// A TPP allowed to initiate payments, and the PSU it acts for.
pub struct Payer {
    pub tpp_id: String,
    pub customer_id: String,
}

/// The creator of a payment. Without PSU-ID or X-PSU-IDENTITY, a request that sends PSU-Context starts a
/// single-SCA journey (docs/reference/payments.md#payments-signing-baskets-and-batch-runs): the payment's own SCA
/// identifies the PSU and returns the psu-id.
pub struct Creator {
    pub tpp_id: String,
    /// None until the payment's SCA identifies the PSU.
    pub customer_id: Option<String>,
}

/// The headers the bank requires on payment creation and on every basket call, in the order checked.
pub const REQUIRED: [&str; 4] = [
    "x-accept-fix",
    "TPP-Session-ID",
    "TPP-Redirect-URI",
    "PSU-IP-Address",
];

/// 403 FORBIDDEN unless the TPP's certificate holds the PSD2 role PSP_PI.
pub fn pisp(tpp: &VerifiedTpp) -> CoreResult<()> {
    if tpp.has_role(Psd2Role::PspPi) {
        return Ok(());
    }
    let roles: Vec<&str> = tpp.tpp().roles().iter().map(|r| r.as_str()).collect();
    Err(Refusal::forbidden(format!(
        "Payment initiation needs a certificate with the PSD2 role PSP_PI (PISP); this certificate has {}.",
        roles.join(", ")
    )))
}

/// x-accept-fix missing: which values it may hold (docs/reference/payments.md#payments-signing-baskets-and-batch-runs), so that a
/// developer need not look them up.
fn accept_fix_required() -> Refusal {
    Refusal::new(
        Code::HttpHeaderRequired,
        Some("x-accept-fix"),
        format!(
            "The header x-accept-fix is required on payment creation and on every signing-basket call: send the \
             published fixes your client supports, comma-separated, e.g. 'x-accept-fix: amount-as-string'. \
             Published: {}. A fix is in force once named or once its day has passed.",
            Fix::published()
        ),
    )
}

/// 400 HTTP_HEADER_REQUIRED for TPP-Session-ID or TPP-Redirect-URI missing, which starting an SCA needs.
fn require_sca_headers(sca: &ScaPresets) -> CoreResult<()> {
    if sca.tpp_session_id.is_none() {
        return Err(Refusal::header_required("TPP-Session-ID"));
    }
    if sca.redirect_uri.is_none() {
        return Err(Refusal::header_required("TPP-Redirect-URI"));
    }
    Ok(())
}

impl Caller {
    /// The value of one of the [`REQUIRED`] headers.
    fn required(&self, name: &str) -> Option<&str> {
        match name {
            "x-accept-fix" => self.accept_fix.as_deref(),
            "TPP-Session-ID" => self.sca.tpp_session_id.as_deref(),
            "TPP-Redirect-URI" => self.sca.redirect_uri.as_deref(),
            _ => self.psu_ip_address.as_deref(),
        }
    }

    /// 400 HTTP_HEADER_REQUIRED for the first of the [`REQUIRED`] headers missing.
    pub fn require_headers(&self) -> CoreResult<()> {
        for name in REQUIRED {
            if self.required(name).is_none() {
                return Err(if name == "x-accept-fix" {
                    accept_fix_required()
                } else {
                    Refusal::header_required(name)
                });
            }
        }
        Ok(())
    }

    /// The PSU of the request: PSU-ID (a psu-id this TPP obtained), or X-PSU-IDENTITY when allowed;
    /// a corporate user must also send PSU-Corporate-ID.
    pub fn payer(
        &self,
        store: &Store,
        allow_identity: bool,
        now: OffsetDateTime,
    ) -> CoreResult<Payer> {
        pisp(&self.tpp)?;
        let tpp_id = self.tpp.tpp_id();
        let customer_id = match (&self.psu_id, &self.sca.psu_identity) {
            (Some(psu_id), _) => psu::customer_of(store, &tpp_id, psu_id)?
                .ok_or_else(|| psu::unknown_psu(psu_id))?,
            (None, Some(identity)) if allow_identity => {
                engine::person_by_national_id(store, identity)
                    .map_err(|e| Refusal::format("X-PSU-IDENTITY", e.to_string()))?
                    .id
            }
            _ => {
                return Err(Refusal::header_required("PSU-ID").with_messages([TppMessage::warning(
                    Code::HttpHeaderRequired,
                    Some("PSU-ID"),
                    "Obtain a psu-id with GET /v1/users (SCA), or name the PSU with X-PSU-IDENTITY when creating a payment.",
                )]))
            }
        };
        self.require_corporate_id(store, &tpp_id, &customer_id, now)?;
        Ok(Payer {
            tpp_id,
            customer_id,
        })
    }

    /// A corporate user must send PSU-Corporate-ID (400 otherwise): a PSU whose SCA in this TPP-Session-ID
    /// was done in corporate context is a corporate user here.
    fn require_corporate_id(
        &self,
        store: &Store,
        tpp_id: &str,
        customer_id: &str,
        now: OffsetDateTime,
    ) -> CoreResult<()> {
        let (Some(session_id), None) = (&self.sca.tpp_session_id, &self.psu_corporate_id) else {
            return Ok(());
        };
        if let SessionState::Valid(session) =
            session::state(store, tpp_id, customer_id, session_id, now)?
        {
            if session.context == Context::Corporate {
                return Err(Refusal::new(
                    Code::HttpHeaderRequired,
                    Some("PSU-Corporate-ID"),
                    "This PSU acts in corporate context: after SCA both PSU-ID and PSU-Corporate-ID must be sent.",
                ));
            }
        }
        Ok(())
    }

    /// The creator of a payment request: the single-SCA journey, or the [`Payer`] with X-PSU-IDENTITY
    /// allowed.
    pub fn creator(&self, store: &Store, now: OffsetDateTime) -> CoreResult<Creator> {
        let single_sca =
            self.psu_id.is_none() && self.sca.psu_identity.is_none() && self.psu_context.is_some();
        if single_sca {
            pisp(&self.tpp)?;
            return Ok(Creator {
                tpp_id: self.tpp.tpp_id(),
                customer_id: None,
            });
        }
        let payer = self.payer(store, true, now)?;
        Ok(Creator {
            tpp_id: payer.tpp_id,
            customer_id: Some(payer.customer_id),
        })
    }

    /// What the request presets for the PSU's approval of payments, by `customer_id` when known: its
    /// session, redirect (both required), identity, method and brand.
    pub fn approval(&self, customer_id: Option<&str>) -> CoreResult<Approval> {
        require_sca_headers(&self.sca)?;
        Ok(Approval {
            start: self.sca.start(
                &self.tpp,
                Purpose::Payment,
                customer_id.map(str::to_owned),
                None,
            ),
            tpp_brand: self.sca.tpp_brand.clone(),
        })
    }
}
