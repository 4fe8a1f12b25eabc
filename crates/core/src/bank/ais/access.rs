//! Who may read what (docs/interface.md#consent, docs/interface.md#strong-customer-authentication-and-tpp-sessions,
//! docs/interface.md#limits, docs/reference/ais-sca.md#the-rules-each-with-a-test), without a transport: for
//! one account information request, which PSU and context it is for, which consent covers it and whether
//! SCA is needed ([`decide`], [`identify`]); then, per account, the consent's coverage and the
//! PSU-not-present limits ([`Access::check_account`]).
//!
//! It reads the consents (`consent`) and the SCA records (`sca`: sessions, psu-ids), and sits above both:
//! the SCA engine grants consents, so the consent records must not reach back into it.

use crate::bank::consent::{self, AccountAccessLog, Consent, UNATTENDED_HISTORY};
use crate::bank::sca::session::{self, SessionState};
use crate::bank::sca::{psu, Context};
use crate::domain::refusal::{Code, CoreResult, Refusal};
use crate::signing::qc_statements::Psd2Role;
use crate::signing::verifier::VerifiedTpp;
use crate::store::Store;
use time::{Duration, OffsetDateTime};

/// docs/interface.md#limits: calls without the PSU present, per account and TPP, per 24 hours.
pub const UNATTENDED_CALLS_PER_DAY: usize = 4;

/// Which endpoint an account is read through (the unattended limit counts each separately).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Endpoint {
    Details,
    Balances,
    Transactions,
}

impl Endpoint {
    fn name(self) -> &'static str {
        match self {
            Endpoint::Details => "details",
            Endpoint::Balances => "balances",
            Endpoint::Transactions => "transactions",
        }
    }
}

/// What the request says about its PSU: the headers that decide access, as sent (trimmed, non-empty).
#[derive(Debug, Clone, Copy, Default)]
pub struct Ask<'a> {
    pub psu_id: Option<&'a str>,
    pub session_id: Option<&'a str>,
    pub corporate_id: Option<&'a str>,
    /// PSU-IP-Address present: the PSU asks in real time.
    pub psu_present: bool,
}

/// Why access was not granted.
#[derive(Debug)]
pub enum Denied {
    /// Refused as is.
    Refused(Refusal),
    /// The PSU must (re)do SCA: the caller starts an authorisation and answers with its scaRedirect.
    Sca(ScaCause),
    /// The PSU-ID is not one this TPP knows: SCA starts afresh, and the answer names the header.
    UnknownPsu { psu_id: String },
}

/// Why SCA is needed, and for whom so far.
#[derive(Debug, Clone)]
pub struct ScaCause {
    pub code: Code,
    pub reason: String,
    pub customer_id: Option<String>,
    pub agreement_id: Option<String>,
}

impl From<Refusal> for Denied {
    fn from(refusal: Refusal) -> Self {
        Denied::Refused(refusal)
    }
}

fn sca(
    code: Code,
    reason: impl Into<String>,
    customer_id: Option<&str>,
    agreement_id: Option<&str>,
) -> Denied {
    Denied::Sca(ScaCause {
        code,
        reason: reason.into(),
        customer_id: customer_id.map(str::to_owned),
        agreement_id: agreement_id.map(str::to_owned),
    })
}

/// A request allowed to read account information, and on whose behalf.
#[derive(Debug, Clone)]
pub struct Access {
    pub tpp: VerifiedTpp,
    pub customer_id: String,
    pub context: Context,
    pub agreement_id: Option<String>,
    pub consent: Consent,
    /// PSU-IP-Address present: the PSU asked in real time.
    pub psu_present: bool,
}

/// The identified PSU of a request at this TPP, with a valid SCA session, without a consent requirement
/// (for GET /v1/users and GET /v1/agreements).
#[derive(Debug, Clone)]
pub struct IdentifiedPsu {
    pub tpp: VerifiedTpp,
    pub customer_id: String,
    pub psu_id: String,
    pub session_context: Option<Context>,
}

/// 403 unless the certificate has PSP_AI.
pub fn require_aisp(tpp: &VerifiedTpp) -> CoreResult<()> {
    if tpp.has_role(Psd2Role::PspAi) {
        return Ok(());
    }
    let roles: Vec<&str> = tpp.tpp().roles().iter().map(|r| r.as_str()).collect();
    Err(Refusal::new(
        Code::Forbidden,
        None,
        format!(
            "Account information needs a certificate with the PSD2 role PSP_AI (AISP); this certificate has {}.",
            roles.join(", ")
        ),
    ))
}

/// Resolves PSU-ID and requires a valid SCA in the request's TPP-Session-ID.
pub fn identify(
    store: &Store,
    tpp: &VerifiedTpp,
    ask: Ask,
    now: OffsetDateTime,
) -> Result<IdentifiedPsu, Denied> {
    // The same code as the consent journey's first 401: Berlin Group pairs CONSENT_INVALID with 401 and
    // SCA_INVALID with 400 (docs/reference/ais-sca.md#the-rules-each-with-a-test).
    let Some(psu_id) = ask.psu_id else {
        return Err(sca(
            Code::ConsentInvalid,
            "No PSU-ID: the PSU has not been identified by SCA yet.",
            None,
            None,
        ));
    };
    let tpp_id = tpp.tpp_id();
    let Some(customer_id) = psu::customer_of(store, &tpp_id, psu_id)? else {
        return Err(Denied::UnknownPsu {
            psu_id: psu_id.to_owned(),
        });
    };
    let session_id = ask
        .session_id
        .ok_or_else(|| Refusal::header_required("TPP-Session-ID"))?;
    match session::state(store, &tpp_id, &customer_id, session_id, now)? {
        SessionState::Valid(session) => Ok(IdentifiedPsu {
            tpp: tpp.clone(),
            customer_id,
            psu_id: psu_id.to_ascii_lowercase(),
            session_context: Some(session.context),
        }),
        other => {
            let (code, reason) = session_problem(&other);
            Err(sca(code, reason, Some(&customer_id), None))
        }
    }
}

fn session_problem(state: &SessionState) -> (Code, String) {
    match state {
        SessionState::Valid(_) => unreachable!("valid sessions need no SCA"),
        SessionState::Unknown => (
            Code::ConsentInvalid,
            "No SCA has been completed in this TPP-Session-ID (a new session id needs a new SCA).".into(),
        ),
        SessionState::Expired(session) => (
            Code::ScaExpired,
            format!("The SCA in this TPP-Session-ID was done at {} and lasts one hour.", session.sca_at),
        ),
        SessionState::Replaced(_) => (
            Code::ConsentInvalid,
            "This TPP-Session-ID was replaced: the PSU completed SCA in a newer session id, which invalidates this one.".into(),
        ),
    }
}

/// Decides one account information request: the PSU, the context (a PSU-Corporate-ID names an
/// agreement), the consent that covers it, the 180-day renewal and, with the PSU present, the session.
pub fn decide(
    store: &Store,
    tpp: &VerifiedTpp,
    ask: Ask,
    now: OffsetDateTime,
) -> Result<Access, Denied> {
    require_aisp(tpp)?;
    let tpp_id = tpp.tpp_id();
    let Some(psu_id) = ask.psu_id else {
        return Err(sca(
            Code::ConsentInvalid,
            "No consent yet: the request has no PSU-ID, so the PSU must authenticate and choose the accounts to grant.",
            None,
            None,
        ));
    };
    let Some(customer_id) = psu::customer_of(store, &tpp_id, psu_id)? else {
        return Err(Denied::UnknownPsu {
            psu_id: psu_id.to_owned(),
        });
    };
    let session = match ask.session_id {
        Some(id) => Some(session::state(store, &tpp_id, &customer_id, id, now)?),
        None => None,
    };

    // The context: a PSU-Corporate-ID names an agreement; a corporate user must send one
    // (400, docs/reference/ais-sca.md#the-rules-each-with-a-test).
    let agreement_id = match ask.corporate_id {
        Some(corporate_id) => {
            let agreement = psu::agreement_of(store, &tpp_id, corporate_id)?.ok_or_else(|| {
                Refusal::format(
                    "PSU-Corporate-ID",
                    format!("PSU-Corporate-ID {corporate_id} is not known to this TPP: use the psu-corporate-id from the SCA redirect or an id from GET /v1/agreements."),
                )
            })?;
            let engaged = crate::bank::mock::agreements::of_person(store, &customer_id)?
                .iter()
                .any(|a| a.id == agreement);
            if !engaged {
                return Err(Refusal::new(
                    Code::Forbidden,
                    None,
                    "This PSU has no engagement in the corporate agreement named by PSU-Corporate-ID.",
                )
                .into());
            }
            Some(agreement)
        }
        None => {
            // Only the request's own valid session tells that the PSU acts as a corporate user; otherwise
            // no PSU-Corporate-ID means the private context.
            let session_is_corporate =
                matches!(&session, Some(SessionState::Valid(s)) if s.context == Context::Corporate);
            if session_is_corporate {
                return Err(Refusal::new(
                    Code::HttpHeaderRequired,
                    Some("PSU-Corporate-ID"),
                    "This PSU acts in corporate context: after SCA both PSU-ID and PSU-Corporate-ID must be sent.",
                )
                .into());
            }
            None
        }
    };
    let context = if agreement_id.is_some() {
        Context::Corporate
    } else {
        Context::Private
    };
    let agreement = agreement_id.as_deref();

    let consent = match consent::find(store, &tpp_id, &customer_id, agreement)? {
        Some(consent) if !consent.is_empty() => consent,
        _ => {
            let reason = match context {
                Context::Private => "The PSU has granted this TPP no accounts in private context.",
                Context::Corporate => "The PSU has granted this TPP no accounts under this corporate agreement; the consent flow will not ask for the agreement again.",
            };
            return Err(sca(
                Code::ConsentInvalid,
                reason,
                Some(&customer_id),
                agreement,
            ));
        }
    };
    if consent.needs_renewal(now) {
        let reason = format!(
            "The SCA behind this consent was done at {} and must be renewed every 180 days.",
            consent.sca_at
        );
        return Err(sca(
            Code::ConsentExpired,
            reason,
            Some(&customer_id),
            agreement,
        ));
    }
    if ask.psu_present {
        let state_now = session.ok_or_else(|| Refusal::header_required("TPP-Session-ID"))?;
        if !matches!(state_now, SessionState::Valid(_)) {
            let (code, reason) = session_problem(&state_now);
            return Err(sca(code, reason, Some(&customer_id), agreement));
        }
    }
    Ok(Access {
        tpp: tpp.clone(),
        customer_id,
        context,
        agreement_id,
        consent,
        psu_present: ask.psu_present,
    })
}

impl Access {
    /// Checks that the consent covers the account and applies the PSU-not-present rules for `endpoint`;
    /// records the access.
    pub fn check_account(
        &self,
        store: &Store,
        account_id: &str,
        endpoint: Endpoint,
        now: OffsetDateTime,
    ) -> CoreResult<()> {
        if !self.consent.covers(account_id) {
            return Err(Refusal::new(
                Code::ResourceUnknown,
                None,
                format!("Account '{account_id}' is not among the accounts the PSU granted this TPP in this context."),
            ));
        }
        let tpp_id = self.tpp.tpp_id();
        if self.psu_present {
            return consent::record_online_access(store, &tpp_id, [account_id], now);
        }
        if endpoint == Endpoint::Details {
            return Ok(());
        }
        // From reading the count to storing the new call, no parallel request may interleave.
        let _guard = store.locks().access_log();
        let mut log = consent::access_log(store, &tpp_id, account_id)?;
        let accessed_recently = log
            .last_online_access
            .is_some_and(|at| now - at <= UNATTENDED_HISTORY);
        if !accessed_recently {
            // CONSENT_EXPIRED answers 401.
            return Err(Refusal::new(
                Code::ConsentExpired,
                Some("PSU-IP-Address"),
                "Without the PSU present (no PSU-IP-Address) an account can be read only if the PSU accessed it online with SCA \
                 through this TPP in the last 90 days. Read it once with the PSU present.",
            ));
        }
        let day_ago = (now - Duration::hours(24)).unix_timestamp();
        log.unattended_calls.retain(|(_, at)| *at > day_ago);
        let used = log
            .unattended_calls
            .iter()
            .filter(|(name, _)| name == endpoint.name())
            .count();
        if used >= UNATTENDED_CALLS_PER_DAY {
            return Err(Refusal::new(
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
    pub fn record_listed<I>(
        &self,
        store: &Store,
        account_ids: I,
        now: OffsetDateTime,
    ) -> CoreResult<()>
    where
        I: IntoIterator,
        I::Item: AsRef<str>,
    {
        if !self.psu_present {
            return Ok(());
        }
        consent::record_online_access(store, &self.tpp.tpp_id(), account_ids, now)
    }

    /// The earliest booking date this request may see: 90 days back without the PSU present.
    pub fn earliest_history(&self, now: OffsetDateTime) -> Option<time::Date> {
        (!self.psu_present).then(|| (now - UNATTENDED_HISTORY).date())
    }
}
