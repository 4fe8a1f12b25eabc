//! The one query extractor: a query string through the one error mapping, so that one that does not
//! parse is a 400 FORMAT_ERROR at `(query)` in the usual `tppMessages` body, not axum's plain-text
//! rejection. Its syntax is transport; what a parameter's value means is the core's (the handlers take
//! most parameters as text, so that the core names the one at fault).

use crate::api::error::ApiError;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// Like axum's `Query`, with errors as `tppMessages`. `AS_TEXT` says how the refusal reads: a query of
/// typed values (the default, e.g. `before=null` where a number is asked) says "a query parameter is not
/// valid"; a query taken as text ([`TextQuery`]), which fails only when the string cannot be split into
/// its parameters (a parameter given twice, say), says "the query string could not be read".
pub struct ApiQuery<T, const AS_TEXT: bool = false>(pub T);

/// A query whose parameters are taken as text, for the core to read (the mock-data and account
/// information listings): see [`ApiQuery`].
pub type TextQuery<T> = ApiQuery<T, true>;

impl<S: Send + Sync, T: DeserializeOwned + Send, const AS_TEXT: bool> FromRequestParts<S>
    for ApiQuery<T, AS_TEXT>
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Query::<T>::from_request_parts(parts, state)
            .await
            .map(|Query(value)| ApiQuery(value))
            .map_err(|rejection| refused(AS_TEXT, &rejection))
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

/// The FORMAT_ERROR for a query that did not parse.
fn refused(as_text: bool, rejection: &QueryRejection) -> ApiError {
    let what = if as_text {
        "the query string could not be read"
    } else {
        "a query parameter is not valid"
    };
    ApiError::format("(query)", format!("{what}: {}", rejection.body_text()))
}
