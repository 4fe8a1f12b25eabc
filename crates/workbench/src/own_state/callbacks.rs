//! The SCA redirects captured at the workbench's own TPP-Redirect-URI: what the bank sent back (psu-id,
//! psu-corporate-id, context, tpp-session-id; or the failure parameters), and the persona it was for, whose
//! PSU-ID is then kept for its next calls. Capped: the oldest go first.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use time::OffsetDateTime;
use xs2a_core::domain::refusal::CoreResult;
use xs2a_core::store::{Record, Store};

/// How many callbacks are kept.
pub const KEPT: usize = 200;

/// One captured redirect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Callback {
    pub id: String,
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    #[schema(required = true)]
    pub persona_id: Option<String>,
    /// `success` or `failure`.
    #[schema(schema_with = outcome_schema)]
    pub outcome: String,
    #[schema(required = true)]
    pub psu_id: Option<String>,
    #[schema(required = true)]
    pub psu_corporate_id: Option<String>,
    #[schema(required = true)]
    pub context: Option<String>,
    #[schema(required = true)]
    pub tpp_session_id: Option<String>,
    #[schema(required = true)]
    pub system: Option<String>,
    #[schema(required = true)]
    pub status: Option<String>,
    #[schema(required = true)]
    pub code: Option<String>,
    #[schema(required = true)]
    pub message: Option<String>,
    /// Every parameter as received.
    pub query: BTreeMap<String, String>,
}

impl Record for Callback {
    const TREE: &'static str = "workbench-callbacks";
    fn key(&self) -> String {
        self.id.clone()
    }
}

/// Reads a redirect's query parameters; a redirect with a psu-id is a success
/// (docs/reference/ais-sca.md#the-journey).
pub fn from_query(id: String, at: OffsetDateTime, pairs: Vec<(String, String)>) -> Callback {
    let query: BTreeMap<String, String> = pairs.into_iter().collect();
    let get = |k: &str| query.get(k).cloned().filter(|v| !v.is_empty());
    Callback {
        id,
        at,
        persona_id: get("persona"),
        outcome: if get("psu-id").is_some() {
            "success"
        } else {
            "failure"
        }
        .to_owned(),
        psu_id: get("psu-id"),
        psu_corporate_id: get("psu-corporate-id"),
        context: get("context"),
        tpp_session_id: get("tpp-session-id"),
        system: get("system"),
        status: get("status"),
        code: get("code"),
        message: get("message"),
        query,
    }
}

/// Records a callback and, on success, keeps its psu-id (and corporate id) in the persona it was for;
/// drops the oldest callbacks beyond [`KEPT`]. All together.
pub fn record(store: &Store, callback: &Callback) -> CoreResult<()> {
    // A bundled persona is stored when first asked for: a callback for it may come first (the PSU's
    // browser in presentation mode, an SCA started before any screen listed the personas).
    super::personas::ensure_bundled(store)?;
    store.atomically(|store| {
        let table = store.table::<Callback>()?;
        table.insert(callback)?;
        let keys = table.keys_with_prefix("")?;
        for old in keys.iter().take(keys.len().saturating_sub(KEPT)) {
            table.remove(old)?;
        }
        if let (Some(persona_id), Some(psu_id)) = (&callback.persona_id, &callback.psu_id) {
            let personas = store.table::<super::personas::StoredPersona>()?;
            if let Some(mut persona) = personas.get(persona_id)? {
                persona.psu_id = Some(psu_id.clone());
                persona.psu_corporate_id = callback.psu_corporate_id.clone();
                if let Some(session) = &callback.tpp_session_id {
                    persona.tpp_session_id = Some(session.clone());
                }
                personas.insert(&persona)?;
            }
        }
        Ok(())
    })
}

/// The last `limit` callbacks, newest first.
pub fn recent(store: &Store, limit: usize) -> CoreResult<Vec<Callback>> {
    Ok(store.table::<Callback>()?.last_n(limit)?)
}

/// The OpenAPI schema of `Callback.outcome`: one of a fixed set of words.
fn outcome_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(serde_json::json!({"type": "string", "enum": ["success", "failure"]}))
        .expect("a valid schema")
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_successful_redirect_gives_its_persona_the_psu_id() {
        let store = Store::temporary().unwrap();
        crate::own_state::personas::get(&store, "bundled-aisp").unwrap();
        let pairs = [
            ("persona", "bundled-aisp"),
            ("psu-id", "5f2b…"),
            ("tpp-session-id", "s-1"),
            ("context", "PRIVATE"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .to_vec();
        let callback = from_query("000001".into(), datetime!(2026-06-01 12:00 UTC), pairs);
        assert_eq!(callback.outcome, "success");
        record(&store, &callback).unwrap();
        let persona = crate::own_state::personas::get(&store, "bundled-aisp").unwrap();
        assert_eq!(persona.psu_id.as_deref(), Some("5f2b…"));
        assert_eq!(persona.tpp_session_id.as_deref(), Some("s-1"));
    }

    #[test]
    fn a_bundled_persona_keeps_the_psu_id_of_a_redirect_that_comes_before_it_was_ever_listed() {
        let store = Store::temporary().unwrap();
        let pairs = [("persona", "bundled-aisp-pisp"), ("psu-id", "p-9")]
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .to_vec();
        record(
            &store,
            &from_query("2".into(), datetime!(2026-06-01 12:00 UTC), pairs),
        )
        .unwrap();
        let persona = crate::own_state::personas::get(&store, "bundled-aisp-pisp").unwrap();
        assert_eq!(persona.psu_id.as_deref(), Some("p-9"));
    }

    #[test]
    fn a_redirect_without_psu_id_is_a_failure_with_its_parameters() {
        let pairs = [
            ("code", "SCA_INVALID"),
            ("status", "401"),
            ("system", "bank"),
        ]
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .to_vec();
        let callback = from_query("1".into(), datetime!(2026-06-01 12:00 UTC), pairs);
        assert_eq!(callback.outcome, "failure");
        assert_eq!(callback.code.as_deref(), Some("SCA_INVALID"));
    }
}
