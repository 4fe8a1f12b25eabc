//! `_links`: every entry has the bank's Link shape, `{href, verbs}` (docs/interface.md#where-it-answers).

use serde::Serialize;
use std::collections::BTreeMap;

/// One link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Link {
    pub href: String,
    pub verbs: Vec<&'static str>,
}

/// A `_links` map, built fluently: `Links::new().get("self", href)`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Links(BTreeMap<&'static str, Link>);

impl Links {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a link with the given verbs.
    pub fn with(
        mut self,
        name: &'static str,
        href: impl Into<String>,
        verbs: &[&'static str],
    ) -> Self {
        self.0.insert(
            name,
            Link {
                href: href.into(),
                verbs: verbs.to_vec(),
            },
        );
        self
    }

    /// Adds a link to read.
    pub fn get(self, name: &'static str, href: impl Into<String>) -> Self {
        self.with(name, href, &["GET"])
    }

    /// Adds every link of `other` (its entries win on a name both have).
    pub fn merge(mut self, other: Links) -> Self {
        self.0.extend(other.0);
        self
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `_links` in the OpenAPI document: a map from link name (`self`, `status`, `scaRedirect`, ...) to a Link.
impl utoipa::PartialSchema for Links {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .additional_properties(Some(utoipa::openapi::Ref::from_schema_name("Link")))
            .description(Some("Links by name, each {href, verbs}"))
            .into()
    }
}

impl utoipa::ToSchema for Links {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use utoipa::PartialSchema;
        schemas.push(("Link".into(), Link::schema()));
    }
}
