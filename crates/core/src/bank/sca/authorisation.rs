//! One SCA a TPP started: what it is for, what the triggering request preset (X-PSU-IDENTITY, PSU-ID,
//! PSU-Corporate-ID, X-PSU-AuthMethod-Preferred, TPP-Redirect-Preferred), how far the PSU has come on the
//! bank's pages, and where it ended.

use super::Context;
use crate::store::Record;
use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};

/// An authorisation left unfinished this long can no longer be completed.
pub const LIFETIME: Duration = Duration::minutes(30);

/// What the SCA is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Purpose {
    /// GET /v1/users: identify the PSU to obtain a psu-id (a PISP that is not an AISP).
    UserLookup,
    /// The consent flow: the PSU picks the accounts to grant.
    Consent,
    /// Approving payments (one, or a signing basket's): the PSU sees amount and creditor (dynamic
    /// linking) and confirms; never covered by the one-hour session exemption.
    Payment,
}

/// Authentication methods offered on the method page (the bank names ENGANGSKODEAPP_BIOMETRI and HA2; the
/// two brand-named ones are given neutral names here).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum AuthMethod {
    EngangskodeappBiometri,
    Ha2,
    MobileEid,
    BankId,
}

impl AuthMethod {
    pub const ALL: [AuthMethod; 4] = [
        AuthMethod::EngangskodeappBiometri,
        AuthMethod::Ha2,
        AuthMethod::MobileEid,
        AuthMethod::BankId,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            AuthMethod::EngangskodeappBiometri => "ENGANGSKODEAPP_BIOMETRI",
            AuthMethod::Ha2 => "HA2",
            AuthMethod::MobileEid => "MOBILE_EID",
            AuthMethod::BankId => "BANK_ID",
        }
    }

    pub fn parse(text: &str) -> Option<AuthMethod> {
        AuthMethod::ALL
            .into_iter()
            .find(|m| m.as_str().eq_ignore_ascii_case(text.trim()))
    }
}

/// How an authorisation ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Outcome {
    Succeeded,
    Cancelled,
    Failed,
}

/// The page the PSU is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Step {
    Identify,
    Method,
    Context,
    Consent,
    Confirm,
    Finished,
}

/// One SCA.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Authorisation {
    pub id: String,
    pub tpp_id: String,
    pub tpp_name: String,
    pub tpp_session_id: String,
    pub redirect_uri: String,
    pub purpose: Purpose,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    /// X-PSU-IDENTITY on the triggering request: the national identity number to preselect.
    pub preset_identity: Option<String>,
    /// PSU-ID on the triggering request: the PSU is known already.
    pub preset_customer_id: Option<String>,
    /// PSU-Corporate-ID on the triggering request: a new agreement context, not asked again.
    pub preset_agreement_id: Option<String>,
    /// X-PSU-AuthMethod-Preferred: go straight to this method.
    pub preferred_method: Option<AuthMethod>,
    /// TPP-Redirect-Preferred: false: the biometric-in-app variant.
    pub biometric_in_app: bool,
    pub customer_id: Option<String>,
    pub method: Option<AuthMethod>,
    pub context: Option<Context>,
    pub agreement_id: Option<String>,
    pub outcome: Option<Outcome>,
    /// Where the PSU is sent back to, once finished.
    pub redirect: Option<String>,
    /// Purpose Payment: the payments approved by this SCA.
    #[serde(default)]
    pub payment_ids: Vec<String>,
    /// Purpose Payment through a signing basket.
    #[serde(default)]
    pub basket_id: Option<String>,
    /// TPP-Brand-Logging-Information: the brand shown to the PSU.
    #[serde(default)]
    pub tpp_brand: Option<String>,
    /// Set when the PSU completed SCA in this TPP-Session-ID less than an hour before this authorisation
    /// started (the time of that SCA): no new SCA is asked then
    /// (docs/interface.md#strong-customer-authentication-and-tpp-sessions), so the PSU is not authenticated again
    /// (no method step) and only makes the choices the flow needs (context, accounts). Never set for payments, which
    /// need SCA with dynamic linking.
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub session_sca_at: Option<OffsetDateTime>,
    /// Its place in its TPP's list of authorisations (see `sca::retention`).
    #[serde(default)]
    pub seq: Option<u64>,
}

impl Record for Authorisation {
    const TREE: &'static str = "sca-authorisations";
    fn key(&self) -> String {
        self.id.clone()
    }
}

impl Authorisation {
    /// The page the PSU is on.
    pub fn step(&self) -> Step {
        if self.outcome.is_some() {
            Step::Finished
        } else if self.customer_id.is_none() {
            Step::Identify
        } else if self.method.is_none() && self.session_sca_at.is_none() {
            Step::Method
        } else if self.context.is_none() {
            // Payments take their context from the debtor account (set when the payer is identified).
            Step::Context
        } else {
            match self.purpose {
                Purpose::Consent => Step::Consent,
                Purpose::UserLookup | Purpose::Payment => Step::Confirm,
            }
        }
    }

    pub fn is_expired(&self, now: OffsetDateTime) -> bool {
        self.outcome.is_none() && now >= self.created_at + LIFETIME
    }

    /// The bank page path the TPP sends the PSU to (`_links.scaRedirect`, made absolute by the API).
    pub fn page_path(&self) -> String {
        format!("/sca/{}", self.id)
    }
}
