//! Who may read what (SPEC.md, Consent, SCA, TPP-Session-ID rules and Limits): the [`AisAccess`] extractor
//! decides, for one account information request, which PSU and context it is for, which consent covers
//! it, and whether SCA is needed; [`AisAccess::check_account`] then applies the per-account rules,
//! including the PSU-not-present limits.

use crate::api::error::{ApiError, ApiResult, Code};
use crate::api::sca_trigger::{header, sca_required, ScaNeed};
pub use crate::consent::AccountAccessLog;
use crate::consent::{self, Consent, UNATTENDED_HISTORY};
use crate::sca::authorisation::Purpose;
use crate::sca::session::{self, SessionState};
use crate::sca::{psu, Context};
use crate::signing::qc_statements::Psd2Role;
use crate::signing::verifier::VerifiedTpp;
use crate::state::AppState;
use crate::store::Store;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::StatusCode;
use time::{Duration, OffsetDateTime};

/// SPEC.md, Limits: calls without the PSU present, per account and TPP, per 24 hours.
pub const UNATTENDED_CALLS_PER_DAY: usize = 4;

/// Which endpoint an account is read through (the unattended limit counts each separately).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AisEndpoint {
    Details,
    Balances,
    Transactions,
}

impl AisEndpoint {
    fn name(self) -> &'static str {
        match self {
            AisEndpoint::Details => "details",
            AisEndpoint::Balances => "balances",
            AisEndpoint::Transactions => "transactions",
        }
    }
}

/// A request allowed to read account information, and on whose behalf.
#[derive(Debug, Clone)]
pub struct AisAccess {
    pub tpp: VerifiedTpp,
    pub customer_id: String,
    pub context: Context,
    pub agreement_id: Option<String>,
    pub consent: Consent,
    /// PSU-IP-Address present: the PSU asked in real time.
    pub psu_present: bool,
}

impl FromRequestParts<AppState> for AisAccess {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        decide(parts, state, Purpose::Consent)
    }
}

/// The identified PSU of a request at this TPP, with the session check, without a consent requirement
/// (for GET /v1/users and GET /v1/agreements).
#[derive(Debug, Clone)]
pub struct IdentifiedPsu {
    pub tpp: VerifiedTpp,
    pub customer_id: String,
    pub psu_id: String,
    pub session_context: Option<Context>,
}

/// Resolves PSU-ID and requires a valid SCA in the request's TPP-Session-ID; otherwise 401 with a
/// scaRedirect for `purpose`.
pub fn identified_psu(
    parts: &Parts,
    state: &AppState,
    purpose: Purpose,
) -> ApiResult<IdentifiedPsu> {
    let tpp = verified_tpp(parts)?;
    let need = |code, reason: String, customer_id: Option<String>| ScaNeed {
        purpose,
        code,
        reason,
        customer_id,
        agreement_id: None,
    };
    let Some(psu_id) = header(parts, "psu-id") else {
        return Err(sca_required(
            state,
            parts,
            &tpp,
            need(
                Code::ScaInvalid,
                "No PSU-ID: the PSU has not been identified by SCA yet.".into(),
                None,
            ),
        ));
    };
    let tpp_id = tpp.tpp_id();
    let Some(customer_id) = psu::customer_of(&state.store, &tpp_id, psu_id)? else {
        let error = sca_required(
            state,
            parts,
            &tpp,
            need(Code::PsuCredentialsInvalid, String::new(), None),
        );
        return Err(unknown_psu_error(error, psu_id));
    };
    let session_id = header(parts, "tpp-session-id")
        .ok_or_else(|| ApiError::header_required("TPP-Session-ID"))?;
    let now = state.clock.now();
    match session::state(&state.store, &tpp_id, &customer_id, session_id, now)? {
        SessionState::Valid(session) => Ok(IdentifiedPsu {
            tpp,
            customer_id,
            psu_id: psu_id.to_ascii_lowercase(),
            session_context: Some(session.context),
        }),
        other => Err(sca_required(
            state,
            parts,
            &tpp,
            need(
                session_problem(&other).0,
                session_problem(&other).1,
                Some(customer_id),
            ),
        )),
    }
}

/// The 401 that restarts SCA for a PSU-ID this TPP does not know, worded as such and naming the header;
/// any other refusal from starting SCA (say 400 for a missing TPP-Redirect-URI) is returned unchanged.
fn unknown_psu_error(mut error: ApiError, psu_id: &str) -> ApiError {
    if error.status == StatusCode::UNAUTHORIZED && error.refusal.code == Code::PsuCredentialsInvalid
    {
        let unknown = psu::unknown_psu(psu_id);
        error.refusal.text = unknown.text;
        error.refusal.path = unknown.path;
    }
    error
}

fn verified_tpp(parts: &Parts) -> ApiResult<VerifiedTpp> {
    parts
        .extensions
        .get::<VerifiedTpp>()
        .cloned()
        .ok_or_else(|| ApiError::internal("account information route without the signature gate"))
}

/// 403 unless the certificate has PSP_AI.
pub fn require_aisp(tpp: &VerifiedTpp) -> ApiResult<()> {
    if tpp.has_role(Psd2Role::PspAi) {
        return Ok(());
    }
    let roles: Vec<&str> = tpp.tpp().roles().iter().map(|r| r.as_str()).collect();
    Err(ApiError::forbidden(format!(
        "Account information needs a certificate with the PSD2 role PSP_AI (AISP); this certificate has {}.",
        roles.join(", ")
    )))
}

fn session_problem(state: &SessionState) -> (Code, String) {
    match state {
        SessionState::Valid(_) => unreachable!("valid sessions need no SCA"),
        SessionState::Unknown => (
            Code::ScaInvalid,
            "No SCA has been completed in this TPP-Session-ID (a new session id needs a new SCA).".into(),
        ),
        SessionState::Expired(session) => (
            Code::ScaExpired,
            format!("The SCA in this TPP-Session-ID was done at {} and lasts one hour.", session.sca_at),
        ),
        SessionState::Replaced(_) => (
            Code::ScaInvalid,
            "This TPP-Session-ID was replaced: the PSU completed SCA in a newer session id, which invalidates this one.".into(),
        ),
    }
}

fn decide(parts: &Parts, state: &AppState, purpose: Purpose) -> ApiResult<AisAccess> {
    let tpp = verified_tpp(parts)?;
    require_aisp(&tpp)?;
    let tpp_id = tpp.tpp_id();
    let store = &state.store;
    let now = state.clock.now();
    let psu_present = header(parts, "psu-ip-address").is_some();
    let need =
        |code, reason: String, customer_id: Option<String>, agreement_id: Option<String>| ScaNeed {
            purpose,
            code,
            reason,
            customer_id,
            agreement_id,
        };

    let Some(psu_id) = header(parts, "psu-id") else {
        let reason = "No consent yet: the request has no PSU-ID, so the PSU must authenticate and choose the accounts to grant.";
        return Err(sca_required(
            state,
            parts,
            &tpp,
            need(Code::ConsentUnknown, reason.into(), None, None),
        ));
    };
    let Some(customer_id) = psu::customer_of(store, &tpp_id, psu_id)? else {
        let error = sca_required(
            state,
            parts,
            &tpp,
            need(Code::PsuCredentialsInvalid, String::new(), None, None),
        );
        return Err(unknown_psu_error(error, psu_id));
    };
    let session_id = header(parts, "tpp-session-id");
    let session = match session_id {
        Some(id) => Some(session::state(store, &tpp_id, &customer_id, id, now)?),
        None => None,
    };

    // The context: a PSU-Corporate-ID names an agreement; a corporate user must send one (SPEC.md: 400).
    let agreement_id = match header(parts, "psu-corporate-id") {
        Some(corporate_id) => {
            let agreement = psu::agreement_of(store, &tpp_id, corporate_id)?.ok_or_else(|| {
                ApiError::format(
                    "PSU-Corporate-ID",
                    format!("PSU-Corporate-ID {corporate_id} is not known to this TPP: use the psu-corporate-id from the SCA redirect or an id from GET /v1/agreements."),
                )
            })?;
            let engaged = crate::sandbox::agreements::of_person(store, &customer_id)?
                .iter()
                .any(|a| a.id == agreement);
            if !engaged {
                return Err(ApiError::forbidden("This PSU has no engagement in the corporate agreement named by PSU-Corporate-ID."));
            }
            Some(agreement)
        }
        None => {
            // Only the request's own valid session tells that the PSU acts as a corporate user; otherwise
            // no PSU-Corporate-ID means the private context.
            let session_is_corporate =
                matches!(&session, Some(SessionState::Valid(s)) if s.context == Context::Corporate);
            if session_is_corporate {
                return Err(ApiError::new(
                    Code::HttpHeaderRequired,
                    Some("PSU-Corporate-ID"),
                    "This PSU acts in corporate context: after SCA both PSU-ID and PSU-Corporate-ID must be sent.",
                ));
            }
            None
        }
    };
    let context = if agreement_id.is_some() {
        Context::Corporate
    } else {
        Context::Private
    };

    let consent = match consent::find(store, &tpp_id, &customer_id, agreement_id.as_deref())? {
        Some(consent) if !consent.is_empty() => consent,
        _ => {
            let reason = match context {
                Context::Private => "The PSU has granted this TPP no accounts in private context.",
                Context::Corporate => "The PSU has granted this TPP no accounts under this corporate agreement; the consent flow will not ask for the agreement again.",
            };
            return Err(sca_required(
                state,
                parts,
                &tpp,
                need(
                    Code::ConsentUnknown,
                    reason.into(),
                    Some(customer_id),
                    agreement_id,
                ),
            ));
        }
    };
    if consent.needs_renewal(now) {
        let reason = format!(
            "The SCA behind this consent was done at {} and must be renewed every 180 days.",
            consent.sca_at
        );
        return Err(sca_required(
            state,
            parts,
            &tpp,
            need(
                Code::ConsentExpired,
                reason,
                Some(customer_id),
                agreement_id,
            ),
        ));
    }
    if psu_present {
        let state_now = session.ok_or_else(|| ApiError::header_required("TPP-Session-ID"))?;
        if !matches!(state_now, SessionState::Valid(_)) {
            let (code, reason) = session_problem(&state_now);
            return Err(sca_required(
                state,
                parts,
                &tpp,
                need(code, reason, Some(customer_id), agreement_id),
            ));
        }
    }
    Ok(AisAccess {
        tpp,
        customer_id,
        context,
        agreement_id,
        consent,
        psu_present,
    })
}

impl AisAccess {
    /// Checks that the consent covers the account and applies the PSU-not-present rules for `endpoint`;
    /// records the access.
    pub fn check_account(
        &self,
        state: &AppState,
        account_id: &str,
        endpoint: AisEndpoint,
    ) -> ApiResult<()> {
        if !self.consent.covers(account_id) {
            return Err(ApiError::new(
                Code::ResourceUnknown,
                None,
                format!("Account '{account_id}' is not among the accounts the PSU granted this TPP in this context."),
            ));
        }
        let store: &Store = &state.store;
        let now = state.clock.now();
        let tpp_id = self.tpp.tpp_id();
        if self.psu_present {
            return Ok(consent::record_online_access(
                store,
                &tpp_id,
                [account_id],
                now,
            )?);
        }
        if endpoint == AisEndpoint::Details {
            return Ok(());
        }
        // From reading the count to storing the new call, no parallel request may interleave.
        let _guard = store.locks().access_log();
        let mut log = consent::access_log(store, &tpp_id, account_id)?;
        let accessed_recently = log
            .last_online_access
            .is_some_and(|at| now - at <= UNATTENDED_HISTORY);
        if !accessed_recently {
            return Err(ApiError::new(
                Code::ConsentExpired,
                Some("PSU-IP-Address"),
                "Without the PSU present (no PSU-IP-Address) an account can be read only if the PSU accessed it online with SCA \
                 through this TPP in the last 90 days. Read it once with the PSU present.",
            )
            .with_status(StatusCode::UNAUTHORIZED));
        }
        let day_ago = (now - Duration::hours(24)).unix_timestamp();
        log.unattended_calls.retain(|(_, at)| *at > day_ago);
        let used = log
            .unattended_calls
            .iter()
            .filter(|(name, _)| name == endpoint.name())
            .count();
        if used >= UNATTENDED_CALLS_PER_DAY {
            return Err(ApiError::new(
                Code::AccessExceeded,
                None,
                format!(
                    "Without the PSU present, {} of an account may be read at most {UNATTENDED_CALLS_PER_DAY} times per 24 hours; \
                     this TPP has used them. Read with the PSU present (PSU-IP-Address) or wait.",
                    endpoint.name()
                ),
            ));
        }
        log.unattended_calls
            .push((endpoint.name().to_owned(), now.unix_timestamp()));
        store.table::<AccountAccessLog>()?.insert(&log)?;
        Ok(())
    }

    /// A list read with the PSU present (GET /v1/accounts, GET /v1/card-accounts) is online access with
    /// SCA to every account listed.
    pub fn record_listed<I>(&self, state: &AppState, account_ids: I) -> ApiResult<()>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        if !self.psu_present {
            return Ok(());
        }
        Ok(consent::record_online_access(
            &state.store,
            &self.tpp.tpp_id(),
            account_ids,
            state.clock.now(),
        )?)
    }

    /// The earliest booking date this request may see: 90 days back without the PSU present.
    pub fn earliest_history(&self, now: OffsetDateTime) -> Option<time::Date> {
        (!self.psu_present).then(|| (now - UNATTENDED_HISTORY).date())
    }
}
