//! What changed in one record, as a person reads it: the resource it is (by its tree), created, changed
//! or removed, and for a change each field that differs (a JSON pointer, the value before and after);
//! for accounts and card accounts the balances that moved, with the amount they moved by.

use rust_decimal::Decimal;
use serde::Serialize;
use serde_json::Value;
use std::str::FromStr;

/// The most fields listed per record (a record rewritten whole says so in its before and after).
const MAX_FIELDS: usize = 200;

/// The resource a tree holds, and whether it is the sandbox's own bookkeeping (indexes, counters) rather
/// than something the interface shows.
pub fn resource_of(tree: &str) -> (&'static str, bool) {
    match tree {
        "sandbox-customers" => ("customer", false),
        "sandbox-accounts" => ("account", false),
        "sandbox-card-accounts" => ("card-account", false),
        "sandbox-transactions" => ("transaction", false),
        "sandbox-payment-bookings" => ("payment-bookings", false),
        "sandbox-transaction-sequences" => ("transaction-sequence", true),
        "sandbox-pending-transactions" => ("pending-transaction", false),
        "sandbox-card-transactions" => ("card-transaction", false),
        "sandbox-agreements" => ("agreement", false),
        "consents" => ("consent", false),
        "ais-access-log" => ("access-count", false),
        "sca-sessions" => ("tpp-session", false),
        "sca-authorisations" => ("authorisation", false),
        "sca-authorisations-by-tpp" => ("authorisation-order", true),
        "sca-authorisation-counts" => ("authorisation-count", true),
        "sca-expiry" => ("expiry", true),
        "sca-psu-links" => ("psu-link", false),
        "sca-corporate-links" => ("corporate-link", false),
        "payments" => ("payment", false),
        "payment-duplicates" => ("duplicate-index", true),
        "signing-baskets" => ("basket", false),
        "batch-runs" => ("batch-run", false),
        "batch-schedule" => ("schedule", true),
        "settings" => ("setting", false),
        "rehearsal" => ("rehearsal", false),
        "central-register" => ("registered-tpp", false),
        "clock" => ("clock", false),
        "tpp-contacts" => ("tpp-contact", false),
        "workbench-personas" => ("persona", false),
        "traffic-settings" => ("traffic-settings", false),
        _ => ("record", true),
    }
}

/// The resource kinds, for the OpenAPI document.
pub const RESOURCE_KINDS: &[&str] = &[
    "customer",
    "account",
    "card-account",
    "transaction",
    "payment-bookings",
    "transaction-sequence",
    "pending-transaction",
    "card-transaction",
    "agreement",
    "consent",
    "access-count",
    "tpp-session",
    "authorisation",
    "authorisation-order",
    "authorisation-count",
    "expiry",
    "psu-link",
    "corporate-link",
    "payment",
    "duplicate-index",
    "basket",
    "batch-run",
    "schedule",
    "setting",
    "rehearsal",
    "registered-tpp",
    "clock",
    "tpp-contact",
    "persona",
    "traffic-settings",
    "record",
];

/// How a record changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Created,
    Changed,
    Removed,
}

/// One field that differs.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FieldChange {
    /// A JSON pointer into the record, e.g. `/transactionStatus` or `/balances/0/balanceAmount/amount`.
    pub path: String,
    /// Absent (null) when the field did not exist before.
    #[schema(required = true)]
    pub before: Option<Value>,
    /// Absent (null) when the field does not exist after.
    #[schema(required = true)]
    pub after: Option<Value>,
}

/// One record's change.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResourceChange {
    /// The store's tree (docs/data-directory.md).
    pub tree: String,
    #[schema(schema_with = resource_kind_schema)]
    pub resource: String,
    /// The record's key: the resource's id (composite for bookkeeping records).
    pub id: String,
    /// True for the sandbox's own bookkeeping (indexes, counters, expiry times), which the interface
    /// never shows.
    pub internal: bool,
    pub change: ChangeKind,
    /// The fields that differ, for a change (at most 200).
    pub fields: Vec<FieldChange>,
    /// The whole record before and after (null when it did not exist).
    #[schema(required = true)]
    pub before: Option<Value>,
    #[schema(required = true)]
    pub after: Option<Value>,
}

fn resource_kind_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(serde_json::json!({"type": "string", "enum": RESOURCE_KINDS}))
        .expect("a valid schema")
}

/// A balance of an account or card account that moved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceMove {
    /// `account` or `card-account`.
    pub resource: String,
    pub account_id: String,
    /// The account's name, when it has one.
    #[schema(required = true)]
    pub name: Option<String>,
    pub balance_type: String,
    pub currency: String,
    /// Amounts as decimal strings; null when the balance did not exist on that side.
    #[schema(required = true)]
    pub before: Option<String>,
    #[schema(required = true)]
    pub after: Option<String>,
    /// `after - before` (a missing side counts as zero).
    pub moved: String,
}

/// A record of `tree` as JSON, from its stored bytes: JSON as stored, or the JSON of a record stored in a
/// compact binary form (payments, transactions, payment bookings); anything else is shown as text.
fn json_of(tree: &str, bytes: &[u8]) -> Value {
    crate::state_file::trees::stored_as_json(tree, bytes.to_vec())
        .ok()
        .and_then(|json| serde_json::from_slice(&json).ok())
        .unwrap_or_else(|| Value::String(String::from_utf8_lossy(bytes).into_owned()))
}

fn escape(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

fn differences(
    path: &mut String,
    before: Option<&Value>,
    after: Option<&Value>,
    out: &mut Vec<FieldChange>,
) {
    if out.len() >= MAX_FIELDS || before == after {
        return;
    }
    match (before, after) {
        (Some(Value::Object(b)), Some(Value::Object(a))) => {
            let mut keys: Vec<&String> = b.keys().chain(a.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let len = path.len();
                path.push('/');
                path.push_str(&escape(key));
                differences(path, b.get(key), a.get(key), out);
                path.truncate(len);
            }
        }
        (Some(Value::Array(b)), Some(Value::Array(a))) => {
            for i in 0..b.len().max(a.len()) {
                let len = path.len();
                path.push('/');
                path.push_str(&i.to_string());
                differences(path, b.get(i), a.get(i), out);
                path.truncate(len);
            }
        }
        _ => out.push(FieldChange {
            path: path.clone(),
            before: before.cloned(),
            after: after.cloned(),
        }),
    }
}

impl ResourceChange {
    /// The change of the record `key` of `tree` from `before` to `after` (stored bytes); `None` when
    /// nothing changed.
    pub fn of(tree: &str, key: &[u8], before: Option<&[u8]>, after: Option<&[u8]>) -> Option<Self> {
        if before == after {
            return None;
        }
        let (before, after) = (
            before.map(|b| json_of(tree, b)),
            after.map(|a| json_of(tree, a)),
        );
        let change = match (&before, &after) {
            (None, Some(_)) => ChangeKind::Created,
            (Some(_), None) => ChangeKind::Removed,
            _ => ChangeKind::Changed,
        };
        let mut fields = Vec::new();
        if change == ChangeKind::Changed {
            differences(
                &mut String::new(),
                before.as_ref(),
                after.as_ref(),
                &mut fields,
            );
        }
        let (resource, internal) = resource_of(tree);
        Some(ResourceChange {
            tree: tree.to_owned(),
            resource: resource.to_owned(),
            id: String::from_utf8_lossy(key).into_owned(),
            internal,
            change,
            fields,
            before,
            after,
        })
    }

    /// The balances this change of an account or card account moved.
    pub fn balances_moved(&self) -> Vec<BalanceMove> {
        if !matches!(self.resource.as_str(), "account" | "card-account") {
            return Vec::new();
        }
        let before = balances(self.before.as_ref());
        let after = balances(self.after.as_ref());
        let name = self
            .after
            .as_ref()
            .or(self.before.as_ref())
            .and_then(|r| r["name"].as_str())
            .map(str::to_owned);
        let mut types: Vec<&String> = before.keys().chain(after.keys()).collect();
        types.sort();
        types.dedup();
        let mut moves = Vec::new();
        for balance_type in types {
            let (b, a) = (before.get(balance_type), after.get(balance_type));
            let amount = |side: Option<&(Decimal, String)>| side.map(|(d, _)| *d);
            if amount(b) == amount(a) {
                continue;
            }
            let moved = amount(a).unwrap_or_default() - amount(b).unwrap_or_default();
            moves.push(BalanceMove {
                resource: self.resource.clone(),
                account_id: self.id.clone(),
                name: name.clone(),
                balance_type: balance_type.clone(),
                currency: a.or(b).map(|(_, c)| c.clone()).unwrap_or_default(),
                before: amount(b).map(|d| d.to_string()),
                after: amount(a).map(|d| d.to_string()),
                moved: moved.to_string(),
            });
        }
        moves
    }
}

/// A record's balances by type: the amount and its currency.
fn balances(record: Option<&Value>) -> std::collections::BTreeMap<String, (Decimal, String)> {
    let mut found = std::collections::BTreeMap::new();
    let Some(list) = record.and_then(|r| r["balances"].as_array()) else {
        return found;
    };
    for balance in list {
        let Some(kind) = balance["balanceType"].as_str() else {
            continue;
        };
        let amount = &balance["balanceAmount"];
        let value = match &amount["amount"] {
            Value::String(s) => Decimal::from_str(s).ok(),
            Value::Number(n) => Decimal::from_str(&n.to_string()).ok(),
            _ => None,
        };
        if let Some(value) = value {
            let currency = amount["currency"].as_str().unwrap_or_default().to_owned();
            found.insert(kind.to_owned(), (value, currency));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use xs2a_core::store::registry::{Kind, TREES};

    #[test]
    fn every_state_tree_names_its_resource() {
        for tree in TREES.iter().filter(|t| t.kind != Kind::Log) {
            let (resource, _) = resource_of(tree.name);
            assert_ne!(resource, "record", "{} has no resource name", tree.name);
            assert!(RESOURCE_KINDS.contains(&resource));
        }
    }

    #[test]
    fn a_change_lists_the_fields_that_differ_by_pointer() {
        let before = json!({"id": "p1", "status": "RCVD", "history": [{"s": "RCVD"}], "a/b": 1});
        let after = json!({"id": "p1", "status": "ACSC", "history": [{"s": "RCVD"}, {"s": "ACSC"}], "new": true});
        let change = ResourceChange::of(
            "payments",
            b"p1",
            Some(before.to_string().as_bytes()),
            Some(after.to_string().as_bytes()),
        )
        .unwrap();
        assert_eq!(change.change, ChangeKind::Changed);
        let paths: Vec<(&str, Option<&Value>, Option<&Value>)> = change
            .fields
            .iter()
            .map(|f| (f.path.as_str(), f.before.as_ref(), f.after.as_ref()))
            .collect();
        assert_eq!(
            paths,
            [
                ("/a~1b", Some(&json!(1)), None),
                ("/history/1", None, Some(&json!({"s": "ACSC"}))),
                ("/new", None, Some(&json!(true))),
                ("/status", Some(&json!("RCVD")), Some(&json!("ACSC"))),
            ]
        );
        assert!(ResourceChange::of("payments", b"p1", Some(b"{}"), Some(b"{}")).is_none());
        let created = ResourceChange::of("consents", b"c", None, Some(b"{}")).unwrap();
        assert_eq!(
            (created.change, created.resource.as_str()),
            (ChangeKind::Created, "consent")
        );
    }

    #[test]
    fn balances_moved_by_type_with_the_amount_moved() {
        let account = |available: &str, booked: Option<&str>| {
            let mut balances = vec![json!({"balanceType": "interimAvailable",
                "balanceAmount": {"currency": "NOK", "amount": available}})];
            if let Some(booked) = booked {
                balances.push(json!({"balanceType": "closingBooked",
                    "balanceAmount": {"currency": "NOK", "amount": booked}}));
            }
            json!({"id": "a1", "name": "Brukskonto", "balances": balances}).to_string()
        };
        let change = ResourceChange::of(
            "sandbox-accounts",
            b"a1",
            Some(account("1000.00", Some("5.00")).as_bytes()),
            Some(account("750.00", Some("5.00")).as_bytes()),
        )
        .unwrap();
        let moves = change.balances_moved();
        assert_eq!(moves.len(), 1);
        assert_eq!(
            (
                moves[0].balance_type.as_str(),
                moves[0].moved.as_str(),
                moves[0].name.as_deref()
            ),
            ("interimAvailable", "-250.00", Some("Brukskonto"))
        );
    }
}
