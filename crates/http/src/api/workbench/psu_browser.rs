//! `POST /workbench/api/sca/page`: the PSU's browser on the bank's SCA pages, for presentation mode, which
//! shows the pages beside the diagram and lets the trainer do the PSU's SCA there (in a browser and in the
//! desktop window alike, without a second window or a frame). Thin: the browser is
//! `outbound::psu_browser`, which sends to the service's own port, so the PSU's steps are logged as the
//! PSU's own.

use crate::api::answer::Json;
use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use axum::extract::State;
use xs2a_workbench::app_state::AppState;
use xs2a_workbench::outbound::client::Client;
use xs2a_workbench::outbound::psu_browser::{self, PageRequest, PageVisit};

/// The largest page the PSU's browser reads.
const MAX_PAGE: usize = 4 * 1024 * 1024;

/// 200: what the PSU's browser shows after asking for the page or sending the form.
pub async fn page(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<PageRequest>,
) -> ApiResult<Json<PageVisit>> {
    let to = *state
        .listening
        .get()
        .ok_or_else(|| ApiError::internal("the service is not listening yet"))?;
    let mut client = Client::to_own(to).answers_up_to(MAX_PAGE);
    Ok(Json(
        psu_browser::visit(&mut client, &state.base_url(), &request).await?,
    ))
}
