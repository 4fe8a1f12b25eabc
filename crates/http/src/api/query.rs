//! Query strings through the one error mapping: a parameter that does not parse (`before=null` where a
//! number is asked) is a 400 FORMAT_ERROR in the usual body, not axum's plain-text rejection.

use crate::api::error::ApiError;
use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// Like axum's `Query`, with errors as `tppMessages`.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(value)| ApiQuery(value))
            .map_err(|rejection| {
                ApiError::format(
                    "(query)",
                    format!("a query parameter is not valid: {}", rejection.body_text()),
                )
            })
    }
}
