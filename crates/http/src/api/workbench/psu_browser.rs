//! `POST /workbench/api/sca/page`: the PSU's browser on the bank's SCA pages, for presentation mode, which
//! shows the pages beside the diagram and lets the trainer do the PSU's SCA there (in a browser and in the
//! desktop window alike, without a second window or a frame). Thin: the browser is
//! `outbound::psu_browser`, which sends to the service's own port, so the PSU's steps are logged as the
//! PSU's own.

use crate::api::error::{ApiError, ApiResult};
use crate::api::json::JsonBody;
use crate::api::openapi::routes::Routes;
use axum::extract::State;
use axum::Json;
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

/// The route (relative to `/workbench/api`), with its OpenAPI description.
pub fn routes() -> Routes {
    Routes::new().post("/sca/page", page, |op| {
        op.tag("Workbench")
            .summary("The PSU's browser on the bank's SCA pages: a page asked for, or one of its forms sent")
            .description("For presentation mode, which shows the bank's pages beside the diagram: the request goes to the service's own port as the PSU's browser sends it (unsigned; a form as `application/x-www-form-urlencoded`), so it is logged as the PSU's step. The bank's redirects are followed while they stay on its pages; where the bank sends the PSU back to the TPP, `leftTo` says where, and the workbench's own callback is visited as the browser would arrive there (the callback is recorded and the persona keeps its PSU-ID); a TPP app's own redirect URI is not visited. 400 `FORMAT_ERROR` at `url`: not a page of the bank's SCA on this service.")
            .operator()
            .body::<PageRequest>(true)
            .answers::<PageVisit>(200, "What the PSU's browser shows now")
            .refusals(&[400, 401])
    })
}
