//! Path parameters through the one error mapping: a segment that cannot be decoded (e.g. `%FF`) is a
//! 400 FORMAT_ERROR in the usual body, not axum's plain-text rejection.

use crate::api::error::ApiError;
use axum::extract::{FromRequestParts, OriginalUri, Path};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// Like axum's `Path`, with errors as `tppMessages`.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Path::<T>::from_request_parts(parts, state)
            .await
            .map(|Path(value)| ApiPath(value))
            .map_err(|rejection| {
                ApiError::format(
                    "(path)",
                    format!("a path parameter is not valid: {}", rejection.body_text()),
                )
            })
    }
}

/// 404 NOT_FOUND for a request whose path has the shape of a route but no endpoint (a route that starts with
/// a parameter matches any such path); the path is named as it was sent.
pub fn no_endpoint(parts: &Parts) -> ApiError {
    let path = parts
        .extensions
        .get::<OriginalUri>()
        .map(|uri| uri.0.path())
        .unwrap_or_else(|| parts.uri.path());
    ApiError::no_such_path(parts.method.as_str(), path)
}
