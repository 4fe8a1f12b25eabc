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

/// A `true`/`false` query parameter of the request (absent is false; anything else is 400 FORMAT_ERROR
/// naming it), for a handler that reads one flag and no other parameter.
pub fn flag(parts: &Parts, name: &str) -> Result<bool, ApiError> {
    let query = parts.uri.query().unwrap_or("");
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query)
        .map_err(|e| ApiError::format("(query)", format!("the query string is not valid: {e}")))?;
    match pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
    {
        None | Some("false") => Ok(false),
        Some("true") => Ok(true),
        Some(other) => Err(ApiError::format(
            name,
            format!("{name} must be true or false; got '{other}'"),
        )),
    }
}
