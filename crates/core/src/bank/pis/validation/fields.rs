//! Reading a `serde_json::Value` body field by field, so every missing field and every wrong JSON
//! type is answered with 400 FORMAT_ERROR at its own JSON path (`payments[2].creditorAccount.bban`).
//!
//! Validation works on an untyped `Value` rather than serde structs because the rules need the path
//! of each field, the raw text (to count characters and check the downstream character set before
//! anything is normalised) and to tell "absent" from "wrong type" apart. JSON `null` counts as absent.

use crate::domain::refusal::Refusal;
use serde_json::{Map, Value};

/// A JSON object, as the validators receive it.
pub type Object = Map<String, Value>;

/// The path of `name` inside `prefix` (`""` is the body itself), in the dotted form tppMessages use.
pub fn at(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}.{name}")
    }
}

/// The path of entry `index` of the array at `path`.
pub fn index(path: &str, index: usize) -> String {
    format!("{path}[{index}]")
}

/// The JSON type of a value in words, so a type error says what was sent as well as what was wanted.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// 400 FORMAT_ERROR for a required field `name` of `object` (at `prefix`) that is absent (or null). A
/// field sent under a name that differs only in case (`StartDate`) is named, as the query parameters'
/// are: JSON names are case-sensitive, and the difference is easy to miss.
pub fn missing(object: &Object, prefix: &str, name: &str) -> Refusal {
    let path = at(prefix, name);
    match object
        .keys()
        .find(|sent| *sent != name && sent.eq_ignore_ascii_case(name))
    {
        Some(sent) => Refusal::format(
            &path,
            format!(
                "{path} is required but missing; '{sent}' was sent, which differs from it only in case \
                 (field names are case-sensitive)."
            ),
        ),
        None => Refusal::format(&path, format!("{path} is required but missing.")),
    }
}

/// 400 FORMAT_ERROR for a value of the wrong JSON type.
pub fn wrong_type(path: &str, wanted: &str, value: &Value) -> Refusal {
    Refusal::format(
        path,
        format!("{path} must be {wanted}, but {} was sent.", kind(value)),
    )
}

/// The field, or `None` when it is absent or null.
pub fn get<'a>(object: &'a Object, name: &str) -> Option<&'a Value> {
    object.get(name).filter(|v| !v.is_null())
}

/// Views a value as an object.
pub fn as_object<'a>(value: &'a Value, path: &str) -> Result<&'a Object, Refusal> {
    value
        .as_object()
        .ok_or_else(|| wrong_type(path, "an object", value))
}

/// An optional string field.
pub fn opt_str<'a>(
    object: &'a Object,
    prefix: &str,
    name: &str,
) -> Result<Option<&'a str>, Refusal> {
    match get(object, name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong_type(&at(prefix, name), "a string", other)),
    }
}

/// A required string field.
pub fn req_str<'a>(object: &'a Object, prefix: &str, name: &str) -> Result<&'a str, Refusal> {
    opt_str(object, prefix, name)?.ok_or_else(|| missing(object, prefix, name))
}

/// An optional object field.
pub fn opt_obj<'a>(
    object: &'a Object,
    prefix: &str,
    name: &str,
) -> Result<Option<&'a Object>, Refusal> {
    get(object, name)
        .map(|v| as_object(v, &at(prefix, name)))
        .transpose()
}

/// A required object field.
pub fn req_obj<'a>(object: &'a Object, prefix: &str, name: &str) -> Result<&'a Object, Refusal> {
    opt_obj(object, prefix, name)?.ok_or_else(|| missing(object, prefix, name))
}

/// An optional boolean field.
pub fn opt_bool(object: &Object, prefix: &str, name: &str) -> Result<Option<bool>, Refusal> {
    match get(object, name) {
        None => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(wrong_type(
            &at(prefix, name),
            "a boolean (true or false)",
            other,
        )),
    }
}

/// An optional array field.
pub fn opt_array<'a>(
    object: &'a Object,
    prefix: &str,
    name: &str,
) -> Result<Option<&'a Vec<Value>>, Refusal> {
    match get(object, name) {
        None => Ok(None),
        Some(Value::Array(a)) => Ok(Some(a)),
        Some(other) => Err(wrong_type(&at(prefix, name), "an array", other)),
    }
}

/// A required array field.
pub fn req_array<'a>(
    object: &'a Object,
    prefix: &str,
    name: &str,
) -> Result<&'a Vec<Value>, Refusal> {
    opt_array(object, prefix, name)?.ok_or_else(|| missing(object, prefix, name))
}

/// Whether the field is present with a non-null value (used for one-of and exclusivity rules).
pub fn present(object: &Object, name: &str) -> bool {
    get(object, name).is_some()
}
