//! The workbench UI (the built `ui/dist`), served at `/workbench/` so the same UI the desktop app shows
//! runs in a browser against `xs2a-sandbox serve`. Release builds carry the files inside the binary; debug
//! builds read them from `ui/dist` as it is now. Without a built UI the page says how to build it.

use axum::extract::{Path, Request};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};

#[derive(rust_embed::Embed)]
#[folder = "$CARGO_MANIFEST_DIR/../../ui/dist/"]
#[allow_missing = true]
struct Dist;

const NOT_BUILT: &str = "<!doctype html><meta charset=utf-8><title>xs2a-sandbox workbench</title>\
<h1>The workbench UI is not built</h1><p>Build it once and reload: \
<code>npm --prefix ui ci &amp;&amp; npm --prefix ui run build</code> (then rebuild the binary for a release \
build). The API under <code>/workbench/api</code> works without it.</p>";

/// Where the UI's files come from: `XS2A_UI_DIST` (a built `ui/dist` elsewhere, for working on the UI
/// against a running binary without rebuilding it), else the files embedded at build time. Answers the
/// file's type and bytes.
fn find(path: &str) -> Option<(String, Vec<u8>)> {
    match std::env::var_os("XS2A_UI_DIST") {
        Some(dir) => {
            // Only plain relative names: never a path that climbs out of the directory.
            if path.split('/').any(|part| part == ".." || part.is_empty()) {
                return None;
            }
            let full = std::path::Path::new(&dir).join(path);
            let data = std::fs::read(&full).ok()?;
            let mime = mime_guess::from_path(&full).first_or_octet_stream();
            Some((mime.essence_str().to_owned(), data))
        }
        None => Dist::get(path)
            .map(|file| (file.metadata.mimetype().to_owned(), file.data.into_owned())),
    }
}

/// The file at `path`, or none (the page itself always answers: without a built UI, how to build it).
fn serve(path: &str) -> Option<Response> {
    Some(match find(path) {
        Some((mime, data)) => {
            // Hashed asset names never change their content; the page itself must be read afresh.
            let cache = if path.starts_with("assets/") {
                "public, max-age=31536000, immutable"
            } else {
                "no-cache"
            };
            (
                [(CONTENT_TYPE, mime), (CACHE_CONTROL, cache.to_owned())],
                data,
            )
                .into_response()
        }
        None if path == "index.html" => (StatusCode::OK, Html(NOT_BUILT)).into_response(),
        None => return None,
    })
}

/// `GET /workbench`: to the page, with the query (the token) kept. 308 Permanent Redirect, as the OpenAPI
/// document declares: the page's address never changes, and 308 (unlike 301) keeps the method.
pub async fn bare(uri: axum::http::Uri) -> Redirect {
    match uri.query() {
        Some(q) => Redirect::permanent(&format!("/workbench/?{q}")),
        None => Redirect::permanent("/workbench/"),
    }
}

/// `GET /workbench/`: the page; opened with the right `?token=`, it also sets the session cookie, so that
/// another tab of this origin opens authorised (`session_cookie`).
pub async fn index(
    axum::extract::State(state): axum::extract::State<xs2a_workbench::app_state::AppState>,
    headers: axum::http::HeaderMap,
    uri: axum::http::Uri,
) -> Response {
    let mut page = serve("index.html").expect("the page always answers");
    if let Some(cookie) =
        super::session_cookie::on_opening(&headers, uri.query(), &state.settings.operator_token)
    {
        page.headers_mut()
            .insert(axum::http::header::SET_COOKIE, cookie);
    }
    page
}

/// `GET /workbench/{file}`: an asset of the page; 404 NOT_FOUND, as for any path the service does not
/// have, for a file the UI does not hold.
pub async fn file(Path(path): Path<String>, request: Request) -> Response {
    match serve(&path) {
        Some(file) => file,
        None => crate::api::layers::no_such_path(request).await,
    }
}
