//! Routes declared once with their OpenAPI description: [`Routes`] registers a handler and describes the
//! operation in one statement, so that the service's router and the document are both made from the same
//! declarations (`api::routes`) and cannot drift apart.

use super::builder::{Document, Operation};
use axum::handler::Handler;
use axum::routing::{MethodFilter, MethodRouter};
use axum::Router;
use xs2a_workbench::app_state::AppState;

/// Describes one operation: its tag and summary (required), then parameters, body and answers.
type Describe = Box<dyn for<'d> FnOnce(Operation<'d>) -> Operation<'d> + Send>;

/// Makes the router once the state is known (stateful layers need it; the document does not).
type Build = Box<dyn FnOnce(&AppState) -> Router<AppState> + Send>;

/// How a registered route appears in the document.
enum Description {
    /// As this operation.
    Operation(Describe),
    /// As a copy of another operation, made when the document is completed (the workbench's copies of
    /// `/v1/sandbox`: `sandbox::openapi::mirror_for_workbench`).
    Elsewhere,
}

/// One registered route.
struct Entry {
    method: &'static str,
    /// The path as the router takes it, relative to where the routes are nested.
    path: String,
    description: Description,
}

/// `Routes::get`, `post`, ...: a route of that method, described ([`Routes::described`]).
macro_rules! http_method {
    ($name:ident, $method:literal, $filter:ident) => {
        #[doc = concat!("`", $method, " path`, described by `describe`.")]
        pub fn $name<H, T>(
            self,
            path: &str,
            handler: H,
            describe: impl for<'d> FnOnce(Operation<'d>) -> Operation<'d> + Send + 'static,
        ) -> Self
        where
            H: Handler<T, AppState>,
            T: 'static,
        {
            self.described($method, MethodFilter::$filter, path, handler, describe)
        }
    };
}

/// An axum router under construction together with the description of every route it serves.
pub struct Routes {
    build: Build,
    entries: Vec<Entry>,
}

impl Default for Routes {
    fn default() -> Self {
        Self::new()
    }
}

impl Routes {
    pub fn new() -> Self {
        Routes {
            build: Box::new(|_| Router::new()),
            entries: Vec::new(),
        }
    }

    /// Applies `step` to the router being built, after everything registered so far (the order matters
    /// to axum: a route layer wraps only the routes before it).
    fn then(
        self,
        step: impl FnOnce(Router<AppState>, &AppState) -> Router<AppState> + Send + 'static,
    ) -> Self {
        let build = self.build;
        Routes {
            build: Box::new(move |state| step(build(state), state)),
            entries: self.entries,
        }
    }

    fn add(
        mut self,
        method: &'static str,
        path: &str,
        route: MethodRouter<AppState>,
        description: Description,
    ) -> Self {
        self.entries.push(Entry {
            method,
            path: path.to_owned(),
            description,
        });
        let path = path.to_owned();
        self.then(move |router, _| router.route(&path, route))
    }

    /// `method path` served by `handler` (a GET also answers HEAD, as axum serves it), described by
    /// `describe`. The methods below name the common cases.
    fn described<H, T>(
        self,
        method: &'static str,
        filter: MethodFilter,
        path: &str,
        handler: H,
        describe: impl for<'d> FnOnce(Operation<'d>) -> Operation<'d> + Send + 'static,
    ) -> Self
    where
        H: Handler<T, AppState>,
        T: 'static,
    {
        let route = axum::routing::on(filter, handler);
        self.add(
            method,
            path,
            route,
            Description::Operation(Box::new(describe)),
        )
    }

    http_method!(get, "GET", GET);
    http_method!(post, "POST", POST);
    http_method!(put, "PUT", PUT);
    http_method!(patch, "PATCH", PATCH);
    http_method!(delete, "DELETE", DELETE);

    /// These routes, their descriptions left to a copy the document makes of others (see
    /// [`Description::Elsewhere`]); the structural test holds the copy to the routes.
    pub fn documented_elsewhere(mut self) -> Self {
        for entry in &mut self.entries {
            if matches!(entry.description, Description::Operation(_)) {
                entry.description = Description::Elsewhere;
            }
        }
        self
    }

    /// Adds `other`'s routes (`Router::merge`).
    pub fn merge(mut self, other: Routes) -> Self {
        self.entries.extend(other.entries);
        let build = other.build;
        self.then(move |router, state| router.merge(build(state)))
    }

    /// Serves `other` under `prefix` (`Router::nest`); its paths are documented with the prefix.
    pub fn nest(mut self, prefix: &str, other: Routes) -> Self {
        self.entries
            .extend(other.entries.into_iter().map(|entry| entry.under(prefix)));
        let (prefix, build) = (prefix.to_owned(), other.build);
        self.then(move |router, state| router.nest(&prefix, build(state)))
    }

    /// Serves `other` under `alias` and under `prefix`, documented under `prefix` only (the document says
    /// in words that the alias serves the same).
    pub fn nest_aliased(mut self, alias: &str, prefix: &str, other: Routes) -> Self {
        self.entries
            .extend(other.entries.into_iter().map(|entry| entry.under(prefix)));
        let (alias, prefix, build) = (alias.to_owned(), prefix.to_owned(), other.build);
        self.then(move |router, state| {
            let routes = build(state);
            router.nest(&alias, routes.clone()).nest(&prefix, routes)
        })
    }

    /// Changes the router as axum's own methods do (layers, route layers, fallbacks), with the state at
    /// hand for the layers that need it. Routes must be added with the methods above, never here.
    pub fn map_router(
        self,
        change: impl FnOnce(Router<AppState>, &AppState) -> Router<AppState> + Send + 'static,
    ) -> Self {
        self.then(change)
    }

    /// The router, for `state` (not yet given it: `with_state` is the caller's).
    pub fn into_router(self, state: &AppState) -> Router<AppState> {
        (self.build)(state)
    }

    /// Adds every described operation to `doc` (the routes' descriptions run; the router is not built).
    pub fn add_to_document(self, doc: &mut Document) {
        for entry in self.entries {
            match entry.description {
                Description::Operation(describe) => {
                    let path = document_path(&entry.path);
                    describe(doc.operation(entry.method, &path)).finish();
                }
                Description::Elsewhere => {}
            }
        }
    }

    /// Every route served, as `(method, path)` in the document's form (lower-case method, `{name}` for a
    /// wildcard), whether described here or elsewhere.
    pub fn served(&self) -> Vec<(String, String)> {
        self.entries
            .iter()
            .map(|entry| {
                (
                    entry.method.to_ascii_lowercase(),
                    document_path(&entry.path),
                )
            })
            .collect()
    }
}

impl Entry {
    fn under(mut self, prefix: &str) -> Self {
        self.path = format!("{prefix}{}", self.path);
        self
    }
}

/// The document's path template for an axum path: the same `{name}` syntax, except that a wildcard
/// (`{*file}`) is a plain parameter there.
fn document_path(path: &str) -> String {
    path.replace("{*", "{")
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    /// The router and the document are made from the same declarations; the one copy the document makes
    /// itself (the workbench's `/workbench/api/sandbox/...`, from `/v1/sandbox`) is held here to the
    /// routes the workbench serves, so that neither side can have an operation the other lacks.
    #[test]
    fn the_document_has_exactly_the_routes_the_service_serves() {
        let served = crate::api::routes().served();
        let unique: BTreeSet<(String, String)> = served.iter().cloned().collect();
        assert_eq!(unique.len(), served.len(), "a route is declared twice");
        let documented: BTreeSet<(String, String)> = super::super::document()["paths"]
            .as_object()
            .unwrap()
            .iter()
            .flat_map(|(path, item)| {
                let methods = item.as_object().unwrap().keys();
                methods.map(move |method| (method.clone(), path.clone()))
            })
            .collect();
        let undocumented: Vec<_> = unique.difference(&documented).collect();
        let unserved: Vec<_> = documented.difference(&unique).collect();
        assert!(
            undocumented.is_empty() && unserved.is_empty(),
            "served but not documented: {undocumented:?}; documented but not served: {unserved:?}"
        );
    }

    #[test]
    fn nested_paths_are_documented_with_their_prefix_and_a_wildcard_as_a_parameter() {
        let inner = super::Routes::new().get("/{*file}", || async {}, |op| op);
        let routes = super::Routes::new().nest("/ui", inner).nest_aliased(
            "/alias",
            "/v9",
            super::Routes::new().get("/x", || async {}, |op| op),
        );
        assert_eq!(
            routes.served(),
            [
                ("get".to_owned(), "/ui/{file}".to_owned()),
                ("get".to_owned(), "/v9/x".to_owned())
            ]
        );
    }
}
