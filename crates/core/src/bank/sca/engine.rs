//! The SCA engine: starting an authorisation, each step the PSU takes on the bank's pages (or the sandbox
//! automation endpoint takes for them), and the end — a redirect to the TPP with psu-id, tpp-session-id
//! and context on success (docs/interface.md#strong-customer-authentication-and-tpp-sessions), or system, status,
//! code and message on failure. The pages and the automation endpoint both call these functions, so they cannot differ.

use super::authorisation::{AuthMethod, Authorisation, Outcome, Purpose, Step};
pub use super::redirect_query::with_query;
pub use super::step_error::StepError;
use super::{psu, session, Context};
use crate::bank::consent::{self, Consent};
use crate::bank::mock::model::{Account, CardAccount, Customer, CustomerType};
use crate::bank::mock::{agreements, customers, holdings};
use crate::domain::refusal::{Code, CoreResult};
use crate::domain::NationalId;
use crate::store::Store;
use time::OffsetDateTime;

/// The name the failure redirect gives as `system`.
pub const SYSTEM: &str = "xs2a-sandbox-sca";

/// What the triggering request asks for.
#[derive(Debug, Clone)]
pub struct StartSca {
    pub tpp_id: String,
    pub tpp_name: String,
    pub tpp_session_id: String,
    pub redirect_uri: String,
    pub purpose: Purpose,
    pub preset_identity: Option<String>,
    pub preset_customer_id: Option<String>,
    pub preset_agreement_id: Option<String>,
    pub preferred_method: Option<AuthMethod>,
    pub biometric_in_app: bool,
}

/// Starts an authorisation; presets from the request are applied at once.
pub fn start(store: &Store, request: StartSca, now: OffsetDateTime) -> CoreResult<Authorisation> {
    let mut auth = prepare(store, request, now)?;
    super::retention::store_new(store, &mut auth)?;
    Ok(auth)
}

/// The authorisation [`start`] stores, not yet stored: for a caller that stores it with its own writes.
pub(crate) fn prepare(
    store: &Store,
    request: StartSca,
    now: OffsetDateTime,
) -> CoreResult<Authorisation> {
    let mut auth = Authorisation {
        id: uuid::Uuid::new_v4().to_string(),
        tpp_id: request.tpp_id,
        tpp_name: request.tpp_name,
        tpp_session_id: request.tpp_session_id,
        redirect_uri: request.redirect_uri,
        purpose: request.purpose,
        created_at: now,
        preset_identity: request.preset_identity.clone(),
        preset_customer_id: request.preset_customer_id.clone(),
        preset_agreement_id: request.preset_agreement_id.clone(),
        preferred_method: request.preferred_method,
        biometric_in_app: request.biometric_in_app,
        customer_id: request.preset_customer_id,
        method: request.preferred_method,
        context: None,
        agreement_id: None,
        outcome: None,
        redirect: None,
        payment_ids: Vec::new(),
        basket_id: None,
        tpp_brand: None,
        session_sca_at: None,
        seq: None,
    };
    if auth.customer_id.is_none() {
        if let Some(identity) = &request.preset_identity {
            // An unknown or invalid preset leaves the identify page to say so.
            auth.customer_id = person_by_national_id(store, identity).ok().map(|c| c.id);
        }
    }
    // docs/interface.md#strong-customer-authentication-and-tpp-sessions: within the hour of an SCA in this session
    // no new SCA is asked, for consents and user lookups too; services that need dynamic linking (payments) are not
    // covered.
    if let (Some(customer_id), false) = (&auth.customer_id, auth.purpose == Purpose::Payment) {
        let session = session::state(store, &auth.tpp_id, customer_id, &auth.tpp_session_id, now)?;
        if let session::SessionState::Valid(session) = session {
            auth.session_sca_at = Some(session.sca_at);
        }
    }
    if let Some(agreement) = request.preset_agreement_id {
        // A preset the (already known) person has no engagement in is dropped: the context page asks.
        let engaged = match &auth.customer_id {
            Some(customer_id) => agreements::of_person(store, customer_id)?
                .iter()
                .any(|a| a.id == agreement),
            None => true,
        };
        if engaged {
            auth.context = Some(Context::Corporate);
            auth.agreement_id = Some(agreement);
        }
    }
    Ok(auth)
}

/// The authorisation, whatever its state.
pub fn load(store: &Store, id: &str) -> Result<Authorisation, StepError> {
    store
        .table::<Authorisation>()?
        .get(id)?
        .ok_or(StepError::NotFound)
}

/// Loads an authorisation that can still take `step`.
fn at_step(
    store: &Store,
    id: &str,
    step: Step,
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let auth = load(store, id)?;
    if auth.outcome.is_some() {
        return Err(StepError::AlreadyFinished);
    }
    if auth.is_expired(now) {
        return Err(StepError::Expired);
    }
    if auth.step() != step {
        return Err(StepError::WrongStep(auth.step()));
    }
    Ok(auth)
}

fn save(store: &Store, auth: &Authorisation) -> Result<(), StepError> {
    store.table::<Authorisation>()?.insert(auth)?;
    Ok(())
}

/// The private customer with this national identity number.
pub fn person_by_national_id(store: &Store, text: &str) -> Result<Customer, StepError> {
    let id =
        NationalId::parse(text.trim()).map_err(|e| StepError::InvalidNationalId(e.to_string()))?;
    let customer = customers::by_number(store, "nationalId", id.as_str())
        .map_err(|_| StepError::UnknownPerson)?;
    if customer.customer_type != CustomerType::Private {
        return Err(StepError::UnknownPerson);
    }
    Ok(customer)
}

/// Step 1: the PSU gives a (mocked) national identity number.
pub fn identify(
    store: &Store,
    id: &str,
    national_id: &str,
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let mut auth = at_step(store, id, Step::Identify, now)?;
    let customer_id = person_by_national_id(store, national_id)?.id;
    // A preset agreement this person has no engagement in is dropped: the context page asks instead.
    if let Some(agreement) = &auth.agreement_id {
        if !agreements::of_person(store, &customer_id)?
            .iter()
            .any(|a| &a.id == agreement)
        {
            auth.context = None;
            auth.agreement_id = None;
        }
    }
    auth.customer_id = Some(customer_id);
    super::approval::assign_payer_context(store, &mut auth)?;
    save(store, &auth)?;
    Ok(auth)
}

/// Step 2: the PSU picks an authentication method (any method succeeds in the sandbox).
pub fn choose_method(
    store: &Store,
    id: &str,
    method: AuthMethod,
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let mut auth = at_step(store, id, Step::Method, now)?;
    auth.method = Some(method);
    save(store, &auth)?;
    Ok(auth)
}

/// An agreement the person may act under, as the context page lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgreementChoice {
    pub id: String,
    pub name: String,
    pub owner_name: String,
    pub owner_number: String,
}

/// The corporate agreements a person has engagements in.
pub fn agreement_choices(store: &Store, customer_id: &str) -> CoreResult<Vec<AgreementChoice>> {
    let mut choices = Vec::new();
    for agreement in agreements::of_person(store, customer_id)? {
        let owner = customers::by_id(store, &agreement.owner_customer_id)?;
        choices.push(AgreementChoice {
            id: agreement.id.clone(),
            name: agreement.name.clone(),
            owner_name: owner.map(|o| o.name).unwrap_or_default(),
            owner_number: agreement.owner.clone(),
        });
    }
    Ok(choices)
}

/// Step 3: PRIVATE, or CORPORATE under one of the person's agreements.
pub fn choose_context(
    store: &Store,
    id: &str,
    context: Context,
    agreement_id: Option<&str>,
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let mut auth = at_step(store, id, Step::Context, now)?;
    let customer_id = auth
        .customer_id
        .clone()
        .expect("identified before the context step");
    if context == Context::Corporate {
        let choices = agreement_choices(store, &customer_id)?;
        if choices.is_empty() {
            return Err(StepError::NoAgreements);
        }
        let chosen = match agreement_id {
            Some(id) => choices
                .iter()
                .find(|c| c.id == id)
                .ok_or(StepError::UnknownAgreement)?,
            None if choices.len() == 1 => &choices[0],
            None => return Err(StepError::UnknownAgreement),
        };
        auth.agreement_id = Some(chosen.id.clone());
    }
    auth.context = Some(context);
    save(store, &auth)?;
    Ok(auth)
}

/// An account on the consent screen.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AccountChoice {
    pub id: String,
    pub name: String,
    /// BBAN for an account, masked PAN for a card account.
    pub number: String,
    pub is_card: bool,
    /// Already granted to this TPP: pre-selected.
    pub granted: bool,
}

/// The accounts the consent screen lists for this authorisation's PSU and context.
pub fn consent_choices(store: &Store, auth: &Authorisation) -> CoreResult<Vec<AccountChoice>> {
    let Some(customer_id) = &auth.customer_id else {
        return Ok(Vec::new());
    };
    let current = consent::find(
        store,
        &auth.tpp_id,
        customer_id,
        auth.agreement_id.as_deref(),
    )?;
    let granted = |id: &str| current.as_ref().is_some_and(|c| c.covers(id));
    let mut choices = Vec::new();
    match &auth.agreement_id {
        None => {
            for account in holdings::of_customer::<Account>(store, customer_id)? {
                choices.push(AccountChoice {
                    granted: granted(&account.id),
                    id: account.id,
                    name: account.name,
                    number: account.bban,
                    is_card: false,
                });
            }
            for card in holdings::of_customer::<CardAccount>(store, customer_id)? {
                choices.push(AccountChoice {
                    granted: granted(&card.id),
                    id: card.id,
                    name: card.name,
                    number: card.masked_pan,
                    is_card: true,
                });
            }
        }
        Some(agreement_id) => {
            let agreement = agreements::by_id(store, agreement_id)?;
            for engagement in agreement
                .iter()
                .flat_map(|a| &a.engagements)
                .filter(|e| &e.customer_id == customer_id)
            {
                let account = holdings::by_id::<Account>(store, "account", &engagement.account_id)?;
                choices.push(AccountChoice {
                    granted: granted(&account.id),
                    id: account.id,
                    name: account.name,
                    number: account.bban,
                    is_card: false,
                });
            }
        }
    }
    Ok(choices)
}

/// Step 4 (consent): the ticked accounts are granted, the unticked revoked; SCA completes. Everything the
/// completion writes (consent, access log, session, psu-ids, the authorisation, approved payments) is
/// written together or not at all.
pub fn grant(
    store: &Store,
    id: &str,
    ticked: &[String],
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let _runs = store.locks().runs();
    store.atomically(|store| grant_in(store, id, ticked, now))
}

fn grant_in(
    store: &Store,
    id: &str,
    ticked: &[String],
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let auth = at_step(store, id, Step::Consent, now)?;
    let choices = consent_choices(store, &auth)?;
    for id in ticked {
        if !choices.iter().any(|c| &c.id == id) {
            return Err(StepError::UnknownAccount(id.clone()));
        }
    }
    let is_ticked = |c: &&AccountChoice| ticked.contains(&c.id);
    let granted = consent::record_choice(
        store,
        Consent {
            tpp_id: auth.tpp_id.clone(),
            tpp_name: auth.tpp_name.clone(),
            customer_id: auth.customer_id.clone().expect("identified"),
            agreement_id: auth.agreement_id.clone(),
            accounts: choices
                .iter()
                .filter(is_ticked)
                .filter(|c| !c.is_card)
                .map(|c| c.id.clone())
                .collect(),
            card_accounts: choices
                .iter()
                .filter(is_ticked)
                .filter(|c| c.is_card)
                .map(|c| c.id.clone())
                .collect(),
            granted_at: now,
            // Within a session's hour the consent rests on the SCA done then, not on a new one.
            sca_at: auth.session_sca_at.unwrap_or(now),
        },
    )?;
    let granted_ids = granted.accounts.iter().chain(&granted.card_accounts);
    consent::record_online_access(store, &auth.tpp_id, granted_ids, now)?;
    complete(store, auth, now)
}

/// Step 4 (user lookup, payment): the PSU confirms; SCA completes, all at once (as [`grant`]).
pub fn confirm(store: &Store, id: &str, now: OffsetDateTime) -> Result<Authorisation, StepError> {
    // The completion authorises payments: no batch run may decide while it is half written.
    let _runs = store.locks().runs();
    store.atomically(|store| confirm_in(store, id, now))
}

fn confirm_in(store: &Store, id: &str, now: OffsetDateTime) -> Result<Authorisation, StepError> {
    let auth = at_step(store, id, Step::Confirm, now)?;
    // Any completed SCA renews the 180 days of the PSU's consent at this TPP in the same context; a flow
    // inside a session's hour did no new SCA and renews nothing.
    let customer_id = auth.customer_id.as_deref().expect("identified");
    let agreement_id = auth.agreement_id.as_deref();
    if auth.session_sca_at.is_none() {
        consent::refresh_sca(store, &auth.tpp_id, customer_id, agreement_id, now)?;
    }
    complete(store, auth, now)
}

/// Records the session and identities and builds the success redirect.
fn complete(
    store: &Store,
    mut auth: Authorisation,
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let customer_id = auth.customer_id.clone().expect("identified");
    let context = auth.context.expect("context chosen");
    // Without a new SCA the session keeps its hour, counted from the SCA that opened it.
    if auth.session_sca_at.is_none() {
        session::record_sca(
            store,
            &auth.tpp_id,
            &customer_id,
            &auth.tpp_session_id,
            context,
            auth.agreement_id.as_deref(),
            now,
        )?;
    }
    let psu_id = psu::psu_id_for(store, &auth.tpp_id, &customer_id)?;
    let mut query = vec![("psu-id", psu_id)];
    if let Some(agreement_id) = &auth.agreement_id {
        query.push((
            "psu-corporate-id",
            psu::corporate_id_for(store, &auth.tpp_id, agreement_id)?,
        ));
    }
    query.push(("tpp-session-id", auth.tpp_session_id.clone()));
    query.push(("context", context.as_str().to_owned()));
    auth.redirect = Some(with_query(&auth.redirect_uri, &query));
    auth.outcome = Some(Outcome::Succeeded);
    save(store, &auth)?;
    // Approved payments are authorised here, so every way of completing SCA authorises them.
    super::approval::apply(store, &auth, now)?;
    Ok(auth)
}

/// The PSU cancels: back to the TPP with the failure parameters; the old session stays valid.
pub fn cancel(store: &Store, id: &str, now: OffsetDateTime) -> Result<Authorisation, StepError> {
    end_with_failure(
        store,
        id,
        Outcome::Cancelled,
        401,
        Code::ScaInvalid,
        "The PSU cancelled the authorisation.",
        now,
    )
}

/// The SCA fails (wrong credentials, in the automation endpoint's words): back to the TPP with the
/// failure parameters.
pub fn fail(store: &Store, id: &str, now: OffsetDateTime) -> Result<Authorisation, StepError> {
    end_with_failure(
        store,
        id,
        Outcome::Failed,
        401,
        Code::PsuCredentialsInvalid,
        "The PSU could not be authenticated.",
        now,
    )
}

fn end_with_failure(
    store: &Store,
    id: &str,
    outcome: Outcome,
    status: u16,
    code: Code,
    message: &str,
    now: OffsetDateTime,
) -> Result<Authorisation, StepError> {
    let mut auth = load(store, id)?;
    if auth.outcome.is_some() {
        return Err(StepError::AlreadyFinished);
    }
    let (code, message) = if auth.is_expired(now) {
        (
            Code::ScaExpired,
            "The authorisation expired before it was completed.",
        )
    } else {
        (code, message)
    };
    let query = [
        ("system", SYSTEM.to_owned()),
        ("status", status.to_string()),
        ("code", code.as_str().to_owned()),
        ("message", message.to_owned()),
    ];
    auth.redirect = Some(with_query(&auth.redirect_uri, &query));
    auth.outcome = Some(outcome);
    save(store, &auth)?;
    Ok(auth)
}
