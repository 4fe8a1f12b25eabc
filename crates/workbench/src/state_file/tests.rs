//! State files in the core: the round trip, and every refusal naming its place and leaving the data as
//! it was.

use super::*;
use serde_json::{json, Value};
use time::macros::date;
use xs2a_core::store::Store;

fn seeded() -> Store {
    let store = Store::temporary().unwrap();
    xs2a_core::bank::mock::seed::initialize(&store, date!(2026 - 06 - 01)).unwrap();
    store
}

fn file_of(store: &Store) -> Value {
    serde_json::from_slice(&export(store).unwrap()).unwrap()
}

/// Imports `bytes` into a seeded store and checks that the refusal is of `kind` at `pointer` and that
/// the store's state is what it was before.
fn refused(bytes: &[u8], mode: Mode, kind: FaultKind, pointer: &str) -> FileError {
    let store = seeded();
    let before = export(&store).unwrap();
    let error = import(&store, bytes, mode).expect_err("the import should be refused");
    assert_eq!(
        (error.kind, error.pointer.as_str()),
        (kind, pointer),
        "{error}"
    );
    assert_eq!(export(&store).unwrap(), before, "the data changed");
    error
}

#[test]
fn export_then_import_into_an_empty_store_then_export_gives_the_same_file() {
    let store = seeded();
    let first = export(&store).unwrap();
    let empty = Store::temporary().unwrap();
    let preview = import(&empty, &first, Mode::Replace).unwrap();
    assert!(preview.records > 50, "{preview:?}");
    assert_eq!(
        String::from_utf8(export(&empty).unwrap()).unwrap(),
        String::from_utf8(first).unwrap()
    );
}

#[test]
fn a_replace_removes_what_the_file_does_not_hold() {
    let store = seeded();
    let mut file = file_of(&store);
    file["trees"]["sandbox-transactions"] = json!([]);
    file["trees"]["sandbox-transaction-sequences"] = json!([]);
    let preview = import(&store, file.to_string().as_bytes(), Mode::Replace).unwrap();
    assert!(preview.trees["sandbox-transactions"].removed > 0);
    assert!(store
        .raw_records("sandbox-transactions")
        .unwrap()
        .is_empty());
}

#[test]
fn a_merge_adds_new_records_and_keeps_the_rest() {
    let store = seeded();
    let mut file = json!({"format": FORMAT, "version": 1, "trees": {}});
    let customer = &file_of(&store)["trees"]["sandbox-customers"][0];
    let mut new_customer = customer.clone();
    new_customer["id"] = json!("f6a0d5f4-0000-4000-8000-000000000001");
    new_customer["customerNumber"] = json!("01010112345");
    file["trees"]["sandbox-customers"] = json!([customer, new_customer]);
    let bytes = file.to_string();
    let shown = preview(&store, bytes.as_bytes(), Mode::Merge).unwrap();
    let change = &shown.trees["sandbox-customers"];
    assert_eq!((change.added, change.unchanged, change.removed), (1, 1, 0));
    let before = store.raw_records("sandbox-customers").unwrap().len();
    import(&store, bytes.as_bytes(), Mode::Merge).unwrap();
    assert_eq!(
        store.raw_records("sandbox-customers").unwrap().len(),
        before + 1
    );
}

#[test]
fn malformed_json_is_refused_at_the_place_it_breaks() {
    let error = refused(
        br#"{"format": "xs2a-sandbox/state", "version": 1, "trees": {"sandbox-customers": [{"id": x}]}}"#,
        Mode::Replace,
        FaultKind::Syntax,
        "/trees/sandbox-customers/0/id",
    );
    assert!(error.message.contains("not JSON"), "{error}");
}

#[test]
fn a_truncated_file_is_refused_as_cut_short() {
    let bytes = export(&seeded()).unwrap();
    let cut = &bytes[..bytes.len() / 2];
    let store = seeded();
    let before = export(&store).unwrap();
    let error = import(&store, cut, Mode::Replace).unwrap_err();
    assert_eq!(error.kind, FaultKind::Syntax);
    assert!(error.pointer.starts_with("/trees/"), "{error}");
    assert!(error.message.contains("truncated"), "{error}");
    assert_eq!(export(&store).unwrap(), before);
}

#[test]
fn an_unknown_format_version_is_refused() {
    let error = refused(
        br#"{"format": "xs2a-sandbox/state", "version": 99, "trees": {}}"#,
        Mode::Replace,
        FaultKind::Version,
        "/version",
    );
    assert!(error.message.contains("version 99 is unknown"), "{error}");
    assert!(
        error.message.contains("written by a newer xs2a-sandbox")
            && error.message.contains(&format!("up to version {VERSION}")),
        "names both versions: {error}"
    );
}

/// A synthetic change of the state file, for the mechanism that reads older files: in "version 1" a
/// customer's `name` was called `fullName`.
fn name_was_full_name(document: &mut Value) -> Result<(), FileError> {
    for customer in document["trees"]["sandbox-customers"]
        .as_array_mut()
        .into_iter()
        .flatten()
    {
        let name = customer
            .as_object_mut()
            .and_then(|c| c.remove("fullName"))
            .ok_or_else(|| FileError::schema("/trees/sandbox-customers", "no fullName"))?;
        customer["name"] = name;
    }
    Ok(())
}

const SYNTHETIC: versions::Versions = versions::Versions {
    kind: "state file",
    migrations: &[versions::FileMigration {
        to: 2,
        what: "customers' fullName is called name",
        run: name_was_full_name,
    }],
};

#[test]
fn an_older_state_file_is_read_as_the_current_version() {
    let store = seeded();
    let current = file_of(&store);
    let mut older = current.clone();
    older["version"] = json!(1);
    for customer in older["trees"]["sandbox-customers"].as_array_mut().unwrap() {
        let name = customer.as_object_mut().unwrap().remove("name").unwrap();
        customer["fullName"] = name;
    }
    // With the synthetic list, today's file is the current version 2 and the edited one version 1.
    let mut as_current = current.clone();
    as_current["version"] = json!(2);
    let expected = import::parse_with(as_current.to_string().as_bytes(), &SYNTHETIC).unwrap();
    let read = import::parse_with(older.to_string().as_bytes(), &SYNTHETIC).unwrap();
    assert_eq!(read.len(), expected.len());
    assert!(read.len() > 50);
    // Both the pretty (fast path) and an odd spelling (slow path: a member given twice) are brought up.
    let mut text = older.to_string();
    text.insert_str(1, r#""description": "a", "#);
    text.insert_str(1, r#""description": "b", "#);
    assert_eq!(
        import::parse_with(text.as_bytes(), &SYNTHETIC)
            .unwrap()
            .len(),
        expected.len()
    );
    // A version 1 file that is not what version 1 was is refused at its place, naming the versions (today's
    // records labelled version 1: the synthetic migration expects `fullName`).
    let mut mislabelled = current.clone();
    mislabelled["version"] = json!(1);
    let error = import::parse_with(mislabelled.to_string().as_bytes(), &SYNTHETIC)
        .err()
        .expect("today's file is not the synthetic version 1");
    assert!(
        error.message.contains("version 1 state file as version 2"),
        "{error}"
    );
}

#[test]
fn another_format_is_refused() {
    refused(
        br#"{"format": "xs2a-sandbox/flow", "version": 1, "trees": {}}"#,
        Mode::Replace,
        FaultKind::Format,
        "/format",
    );
}

#[test]
fn a_record_that_breaks_its_type_is_refused_at_the_field() {
    let store = seeded();
    let mut file = file_of(&store);
    file["trees"]["sandbox-accounts"][2]["currency"] = json!("XYZ");
    let error = refused(
        file.to_string().as_bytes(),
        Mode::Replace,
        FaultKind::Schema,
        "/trees/sandbox-accounts/2/currency",
    );
    assert!(error.message.contains("sandbox-accounts"), "{error}");
}

#[test]
fn unknown_trees_and_members_are_refused() {
    refused(
        br#"{"format": "xs2a-sandbox/state", "version": 1, "trees": {"traffic-entries": []}}"#,
        Mode::Replace,
        FaultKind::Schema,
        "/trees/traffic-entries",
    );
    refused(
        br#"{"format": "xs2a-sandbox/state", "version": 1, "trees": {}, "extra": 1}"#,
        Mode::Replace,
        FaultKind::Schema,
        "/extra",
    );
}

#[test]
fn colliding_ids_in_the_file_are_refused() {
    let store = seeded();
    let mut file = file_of(&store);
    let first = file["trees"]["sandbox-accounts"][0].clone();
    file["trees"]["sandbox-accounts"]
        .as_array_mut()
        .unwrap()
        .push(first);
    let last = file["trees"]["sandbox-accounts"].as_array().unwrap().len() - 1;
    refused(
        file.to_string().as_bytes(),
        Mode::Replace,
        FaultKind::Collision,
        &format!("/trees/sandbox-accounts/{last}"),
    );
}

#[test]
fn a_merge_that_would_overwrite_a_different_record_is_a_collision() {
    let store = seeded();
    let mut account = file_of(&store)["trees"]["sandbox-accounts"][0].clone();
    account["name"] = json!("Renamed");
    let file = json!({"format": FORMAT, "version": 1, "trees": {"sandbox-accounts": [account]}});
    refused(
        file.to_string().as_bytes(),
        Mode::Merge,
        FaultKind::Collision,
        "/trees/sandbox-accounts/0",
    );
}

#[test]
fn a_reference_to_a_missing_account_is_refused_at_the_reference() {
    let store = seeded();
    let mut file = file_of(&store);
    file["trees"]["sandbox-transactions"][0]["accountId"] = json!("no-such-account");
    // The key follows the account; the reference check names the field, not the key.
    let error = refused(
        file.to_string().as_bytes(),
        Mode::Replace,
        FaultKind::MissingReference,
        "/trees/sandbox-transactions/0/accountId",
    );
    assert!(error.message.contains("no-such-account"), "{error}");
}

#[test]
fn a_merge_may_point_at_accounts_the_sandbox_already_holds() {
    let store = seeded();
    let whole = file_of(&store);
    let mut transaction = whole["trees"]["sandbox-transactions"][0].clone();
    transaction["sequence"] = json!(999_999);
    transaction["id"] = json!("merged-1");
    let file =
        json!({"format": FORMAT, "version": 1, "trees": {"sandbox-transactions": [transaction]}});
    let preview = import(&store, file.to_string().as_bytes(), Mode::Merge).unwrap();
    assert_eq!(preview.trees["sandbox-transactions"].added, 1);
}

/// The JSON Schema in fixtures/schema lists exactly the trees the format carries.
#[test]
fn the_schema_file_names_every_carried_tree() {
    let schema: Value = serde_json::from_str(include_str!(
        "../../../../fixtures/schema/state.schema.json"
    ))
    .unwrap();
    let mut listed: Vec<&str> = schema["properties"]["trees"]["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut carried: Vec<&str> = trees::CARRIED.iter().map(|c| c.tree).collect();
    listed.sort_unstable();
    carried.sort_unstable();
    assert_eq!(
        listed, carried,
        "fixtures/schema/state.schema.json is out of date"
    );
    let versions = schema["properties"]["version"]["enum"].as_array().unwrap();
    assert_eq!(
        versions.last(),
        Some(&json!(VERSION)),
        "the newest version the schema allows"
    );
}
