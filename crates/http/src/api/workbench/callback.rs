//! `GET /workbench/callback`: the TPP-Redirect-URI the composer fills in. The bank's SCA pages send the
//! PSU's browser here at the end; the redirect is recorded (`xs2a_workbench::own_state::callbacks`), its psu-id kept
//! in the persona it was for, announced as `sca.callback`, and the PSU sees a short page (a maud template:
//! every value the bank sent back is escaped).

use crate::api::answer::Json;
use crate::api::error::ApiResult;
use axum::extract::{RawQuery, State};
use axum::response::Html;
use maud::{html, PreEscaped, DOCTYPE};
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::own_state::callbacks;

/// 200: a page saying what came back.
pub async fn capture(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Html<String>> {
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_str(query.as_deref().unwrap_or("")).unwrap_or_default();
    let id = format!("{:012}", state.store.next_number()?);
    let callback = callbacks::from_query(id, state.clock.now(), pairs);
    callbacks::record(&state.store, &callback)?;
    state.events.publish(
        xs2a_core::bank::events::EventKind::ScaCallback,
        callback.at,
        serde_json::to_value(&callback).unwrap_or_default(),
    );
    let succeeded = callback.outcome == "success";
    let title = if succeeded {
        "SCA finished"
    } else {
        "SCA did not succeed"
    };
    let text = |value: &Option<String>| value.as_deref().unwrap_or_default().to_owned();
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width";
            title { (title) }
            style { (PreEscaped(STYLE)) }
            h1 { (title) }
            p {
                @if succeeded {
                    "The bank sent the PSU back with psu-id " code { (text(&callback.psu_id)) }
                    @if let Some(context) = &callback.context {
                        " in context " code { (context) }
                    }
                    ". You may close this window."
                } @else {
                    "The bank answered " (text(&callback.status)) " " (text(&callback.code)) ": "
                    (text(&callback.message)) ". You may close this window."
                }
            }
        }
    };
    Ok(Html(page.into_string()))
}

/// The page's look: readable, one column.
const STYLE: &str =
    "body{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}code{font-size:.9em}";

/// 200: the captured redirects, newest first.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<callbacks::Callback>>> {
    Ok(Json(callbacks::recent(&state.store, callbacks::KEPT)?))
}

/// 200: the SCAs not finished yet, newest first (the SCA screen's list).
pub async fn pending(
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<xs2a_workbench::own_state::sca_pending::PendingSca>>> {
    Ok(Json(xs2a_workbench::own_state::sca_pending::pending(
        &state.store,
        state.clock.now(),
        &state.base_url(),
    )?))
}

/// 200: the SCAs finished lately, with where each sent the PSU (the SCA screen's "Sent back").
pub async fn finished(
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<xs2a_workbench::own_state::sca_finished::FinishedSca>>> {
    Ok(Json(xs2a_workbench::own_state::sca_finished::finished(
        &state.store,
    )?))
}
