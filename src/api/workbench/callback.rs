//! `GET /workbench/callback`: the TPP-Redirect-URI the composer fills in. The bank's SCA pages send the
//! PSU's browser here at the end; the redirect is recorded (`crate::workbench::callbacks`), its psu-id kept
//! in the persona it was for, announced as `sca.callback`, and the PSU sees a short page.

use crate::api::error::ApiResult;
use crate::state::AppState;
use crate::workbench::callbacks;
use axum::extract::{RawQuery, State};
use axum::response::Html;
use axum::Json;

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

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
        "sca.callback",
        callback.at,
        serde_json::to_value(&callback).unwrap_or_default(),
    );
    let (title, detail) = match callback.outcome.as_str() {
        "success" => (
            "SCA finished",
            format!(
                "The bank sent the PSU back with psu-id <code>{}</code>{}. You may close this window.",
                escape(callback.psu_id.as_deref().unwrap_or("")),
                match &callback.context {
                    Some(c) => format!(" in context <code>{}</code>", escape(c)),
                    None => String::new(),
                }
            ),
        ),
        _ => (
            "SCA did not succeed",
            format!(
                "The bank answered {} {}: {}. You may close this window.",
                escape(callback.status.as_deref().unwrap_or("")),
                escape(callback.code.as_deref().unwrap_or("")),
                escape(callback.message.as_deref().unwrap_or(""))
            ),
        ),
    };
    Ok(Html(format!(
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content=\"width=device-width\">\
         <title>{title}</title><style>body{{font:16px/1.5 system-ui,sans-serif;max-width:36rem;margin:3rem auto;\
         padding:0 1rem}}code{{font-size:.9em}}</style><h1>{title}</h1><p>{detail}</p></html>"
    )))
}

/// 200: the captured redirects, newest first.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<Vec<callbacks::Callback>>> {
    Ok(Json(callbacks::recent(&state.store, callbacks::KEPT)?))
}

/// 200: the SCAs not finished yet, newest first (the SCA screen's list).
pub async fn pending(
    State(state): State<AppState>,
) -> ApiResult<Json<Vec<crate::workbench::sca_pending::PendingSca>>> {
    Ok(Json(crate::workbench::sca_pending::pending(
        &state.store,
        state.clock.now(),
        &state.base_url(),
    )?))
}
