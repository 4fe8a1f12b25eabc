//! The page handlers: `GET /sca/{id}` shows the page for the authorisation's current step; each
//! `POST /sca/{id}/<step>` calls the SCA engine and answers 303 to the next page, or straight to the TPP's
//! redirect URI once the authorisation has ended. A refused step shows the same page again with 400, the
//! reason in the PSU's language and what they sent.

use super::i18n::step_error;
use super::layout::{html, see_other, Frame, PageLang, View};
use super::{confirm, consent, context, handover, identify, method, notices, payment};
use axum::extract::{FromRequestParts, Path, RawQuery, State};
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::request::Parts;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bytes::Bytes;
use maud::{html as markup, Markup};
use xs2a_core::bank::mock::{agreements, customers};
use xs2a_core::bank::sca::authorisation::{AuthMethod, Authorisation, Purpose, Step};
use xs2a_core::bank::sca::engine::{self, StepError};
use xs2a_core::bank::sca::Context;
use xs2a_workbench::app_state::AppState;

/// What the PSU sent with a refused step, so the page shows it again.
#[derive(Debug, Default)]
struct Typed {
    national_id: Option<String>,
    context: Option<String>,
    accounts: Option<Vec<String>>,
}

/// Why a page is shown again.
enum PageRefusal {
    Flow(StepError),
    /// A method form without a known method.
    ChooseMethod,
    /// A context form without PRIVATE or CORPORATE.
    ChooseContext,
}

/// A urlencoded form body; repeated keys (`account=a&account=b`) are kept, which axum's `Form` cannot do.
struct FormBody(Vec<(String, String)>);

impl FormBody {
    /// An unreadable body counts as empty: the engine then says what is missing.
    fn parse(body: &[u8]) -> FormBody {
        FormBody(serde_urlencoded::from_bytes(body).unwrap_or_default())
    }

    fn first(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.trim())
    }

    fn all(&self, name: &str) -> Vec<String> {
        self.0
            .iter()
            .filter(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .collect()
    }
}

/// What every page handler starts from: the authorisation's id (the path's `{id}`) and the page's
/// language (`?lang=`, else Accept-Language).
pub struct PageRequest {
    id: String,
    lang: PageLang,
}

impl<S: Send + Sync> FromRequestParts<S> for PageRequest {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Response> {
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let lang = PageLang::choose(
            parts.uri.query(),
            parts
                .headers
                .get(ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok()),
        );
        Ok(PageRequest { id, lang })
    }
}

/// `GET /sca/{id}`.
pub async fn show(State(state): State<AppState>, page: PageRequest) -> Response {
    match engine::load(&state.store, &page.id) {
        Ok(auth) => current(&state, page.lang, &auth, &Typed::default(), None),
        Err(StepError::NotFound) => notices::not_found(page.lang),
        Err(error) => failure(page.lang, &error),
    }
}

/// What stays unencoded of an id put back into a path (UUIDs pass as they are).
const PATH_SEGMENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.');

/// `GET` on a form's action (a reload or a typed URL): back to the page.
pub async fn back_to_page(Path(id): Path<String>, RawQuery(query): RawQuery) -> Response {
    let lang = PageLang::choose(query.as_deref(), None);
    see_other(&format!(
        "/sca/{}{}",
        percent_encoding::utf8_percent_encode(&id, PATH_SEGMENT),
        lang.suffix()
    ))
}

/// `POST /sca/{id}/identify` (nationalId).
pub async fn identify(State(state): State<AppState>, page: PageRequest, body: Bytes) -> Response {
    let national_id = FormBody::parse(&body)
        .first("nationalId")
        .unwrap_or("")
        .to_owned();
    let result = engine::identify(&state.store, &page.id, &national_id, state.clock.now());
    let typed = Typed {
        national_id: Some(national_id),
        ..Typed::default()
    };
    after(&state, page, typed, result.map_err(PageRefusal::Flow))
}

/// `POST /sca/{id}/method` (method).
pub async fn method(State(state): State<AppState>, page: PageRequest, body: Bytes) -> Response {
    let chosen = FormBody::parse(&body)
        .first("method")
        .and_then(AuthMethod::parse);
    let result = match chosen {
        Some(chosen) => engine::choose_method(&state.store, &page.id, chosen, state.clock.now())
            .map_err(PageRefusal::Flow),
        None => Err(PageRefusal::ChooseMethod),
    };
    after(&state, page, Typed::default(), result)
}

/// `POST /sca/{id}/context` (context: PRIVATE, CORPORATE or CORPORATE:<agreement id>; agreementId).
pub async fn context(State(state): State<AppState>, page: PageRequest, body: Bytes) -> Response {
    let form = FormBody::parse(&body);
    let field = form.first("context").unwrap_or("");
    let agreement_field = form.first("agreementId").filter(|a| !a.is_empty());
    let (context, agreement_id) = match field.split_once(':') {
        Some((kind, agreement)) => (Context::parse(kind), Some(agreement)),
        None if field.is_empty() && agreement_field.is_some() => {
            (Some(Context::Corporate), agreement_field)
        }
        None => (Context::parse(field), agreement_field),
    };
    let typed = Typed {
        context: Some(match (context, agreement_id) {
            (Some(Context::Corporate), Some(agreement)) => context::corporate_value(agreement),
            _ => field.to_owned(),
        }),
        ..Typed::default()
    };
    let result = match context {
        Some(context) => {
            // An agreement only means something in corporate context.
            let agreement_id = agreement_id.filter(|_| context == Context::Corporate);
            engine::choose_context(
                &state.store,
                &page.id,
                context,
                agreement_id,
                state.clock.now(),
            )
            .map_err(PageRefusal::Flow)
        }
        None => Err(PageRefusal::ChooseContext),
    };
    after(&state, page, typed, result)
}

/// `POST /sca/{id}/consent` (account, repeated: the ticked accounts).
pub async fn consent(State(state): State<AppState>, page: PageRequest, body: Bytes) -> Response {
    let ticked = FormBody::parse(&body).all("account");
    let result = engine::grant(&state.store, &page.id, &ticked, state.clock.now());
    let typed = Typed {
        accounts: Some(ticked),
        ..Typed::default()
    };
    after(&state, page, typed, result.map_err(PageRefusal::Flow))
}

/// `POST /sca/{id}/confirm`.
pub async fn confirm(State(state): State<AppState>, page: PageRequest) -> Response {
    let result = engine::confirm(&state.store, &page.id, state.clock.now());
    if let Ok(auth) = &result {
        xs2a_core::bank::after_sca::after_sca(&state, auth);
    }
    after(
        &state,
        page,
        Typed::default(),
        result.map_err(PageRefusal::Flow),
    )
}

/// `POST /sca/{id}/cancel`: back to the TPP with the failure parameters (SCA_EXPIRED when expired).
pub async fn cancel(State(state): State<AppState>, page: PageRequest) -> Response {
    let result = engine::cancel(&state.store, &page.id, state.clock.now());
    after(
        &state,
        page,
        Typed::default(),
        result.map_err(PageRefusal::Flow),
    )
}

/// After a step: to the TPP when the authorisation ended, else to the next page; a refusal shows the
/// current page again.
fn after(
    state: &AppState,
    page: PageRequest,
    typed: Typed,
    result: Result<Authorisation, PageRefusal>,
) -> Response {
    let PageRequest { id, lang } = page;
    let refusal = match result {
        Ok(auth) => {
            return match (&auth.outcome, &auth.redirect) {
                (Some(_), Some(redirect)) => {
                    handover::onward(state, &View { lang, auth: &auth }, redirect)
                }
                _ => see_other(&format!("/sca/{}{}", auth.id, lang.suffix())),
            }
        }
        Err(PageRefusal::Flow(StepError::NotFound)) => return notices::not_found(lang),
        Err(refusal) => refusal,
    };
    match engine::load(&state.store, &id) {
        // A finished authorisation (double submit, back button) sends the PSU on to the TPP.
        Ok(auth) => current(state, lang, &auth, &typed, Some(refusal)),
        Err(StepError::NotFound) => notices::not_found(lang),
        Err(error) => failure(lang, &error),
    }
}

fn message(lang: PageLang, refusal: &PageRefusal) -> String {
    let t = lang.texts();
    match refusal {
        PageRefusal::Flow(error) => step_error(lang.lang, error),
        PageRefusal::ChooseMethod => t.choose_method.to_owned(),
        PageRefusal::ChooseContext => t.choose_context.to_owned(),
    }
}

/// The page for the step the authorisation is at, with a refusal's message (and status) if any.
fn current(
    state: &AppState,
    lang: PageLang,
    auth: &Authorisation,
    typed: &Typed,
    refusal: Option<PageRefusal>,
) -> Response {
    let view = View { lang, auth };
    if auth.outcome.is_some() {
        return match &auth.redirect {
            Some(redirect) => handover::onward(state, &view, redirect),
            None => notices::finished(&view),
        };
    }
    let status = match &refusal {
        None => StatusCode::OK,
        Some(PageRefusal::Flow(StepError::Storage(_))) => StatusCode::INTERNAL_SERVER_ERROR,
        Some(_) => StatusCode::BAD_REQUEST,
    };
    let error = refusal
        .as_ref()
        .map(|r| message(lang, r))
        .or_else(|| preset_problem(state, lang, auth));
    if auth.is_expired(state.clock.now()) {
        return notices::expired(&view, status, error);
    }
    let (title, body) = match step_page(state, &view, typed) {
        Ok(page) => page,
        Err(error) => return failure(lang, &StepError::from(error)),
    };
    let t = lang.texts();
    let headline = match auth.purpose {
        Purpose::Consent => view.with_tpp(t.wants_consent),
        Purpose::UserLookup => view.with_tpp(t.wants_lookup),
        Purpose::Payment => view.with_tpp(t.wants_payment),
    };
    let frame = Frame {
        lang,
        id: Some(&auth.id),
        headline: Some(headline),
        identity: identity(state, lang, auth),
        title,
        error,
        body,
        cancel: Some(t.cancel.to_owned()),
    };
    html(status, lang.lang, frame.render())
}

fn step_page(
    state: &AppState,
    view: &View,
    typed: &Typed,
) -> Result<(&'static str, Markup), xs2a_core::domain::refusal::Refusal> {
    let store = &state.store;
    let auth = view.auth;
    Ok(match auth.step() {
        Step::Identify => identify::page(
            view,
            typed.national_id.as_deref(),
            &identify::persons(store)?,
        ),
        Step::Method => method::page(view),
        Step::Context => {
            let customer_id = auth.customer_id.as_deref().unwrap_or_default();
            let choices = engine::agreement_choices(store, customer_id)?;
            context::page(view, &choices, typed.context.as_deref())
        }
        Step::Consent => {
            let choices = engine::consent_choices(store, auth)?;
            consent::page(view, &choices, typed.accounts.as_deref())
        }
        Step::Confirm | Step::Finished if auth.purpose == Purpose::Payment => {
            let payments = xs2a_core::bank::sca::approval::payments(store, auth)?;
            payment::page(view, &payments)
        }
        Step::Confirm | Step::Finished => confirm::page(view),
    })
}

/// Why the X-PSU-IDENTITY preset did not identify the PSU, shown on the identify page.
fn preset_problem(state: &AppState, lang: PageLang, auth: &Authorisation) -> Option<String> {
    if auth.step() != Step::Identify {
        return None;
    }
    let preset = auth.preset_identity.as_deref()?;
    let problem = engine::person_by_national_id(&state.store, preset).err()?;
    Some(step_error(lang.lang, &problem))
}

/// "Identified as Kari Nordmann · Acting for ...", once the PSU is known.
fn identity(state: &AppState, lang: PageLang, auth: &Authorisation) -> Option<Markup> {
    let t = lang.texts();
    let customer_id = auth.customer_id.as_deref()?;
    let name = customers::by_id(&state.store, customer_id).ok()??.name;
    let agreement = auth
        .agreement_id
        .as_deref()
        .and_then(|id| agreements::by_id(&state.store, id).ok().flatten());
    Some(markup! {
        (t.identified_as) " " strong { (name) }
        @if let Some(agreement) = agreement {
            " · " (t.acting_for) " " strong { (agreement.name) }
        }
    })
}

/// 500: the sandbox could not read or save the authorisation.
fn failure(lang: PageLang, error: &StepError) -> Response {
    let frame = Frame {
        lang,
        id: None,
        headline: None,
        identity: None,
        title: lang.texts().error_heading,
        error: Some(step_error(lang.lang, error)),
        body: Markup::default(),
        cancel: None,
    };
    html(StatusCode::INTERNAL_SERVER_ERROR, lang.lang, frame.render())
}
