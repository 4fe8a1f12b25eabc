//! The mechanics behind `api::json::parse`'s strictness: a deserializer over an already parsed
//! `serde_json::Value` that refuses a JSON array where a struct (a JSON object with named fields) is
//! expected, and a walk that finds characters no text field may hold.
//!
//! Why a second deserializer: serde's derived structs accept a positional array
//! (`["12345678901", "Kari", "private"]`) as readily as an object, so a body whose fields are
//! silently assigned by position would be stored. Going through a `Value` costs one extra pass over a
//! body of at most a megabyte and gives one place that sees every struct, however deeply nested.

use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeSeed, EnumAccess, IntoDeserializer, VariantAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Value};

/// A parsed JSON value read by serde as the request's type, structs only from objects.
pub struct Strict(pub Value);

impl<'de> IntoDeserializer<'de, Error> for Strict {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

fn visit_array<'de, V: Visitor<'de>>(items: Vec<Value>, visitor: V) -> Result<V::Value, Error> {
    let mut access = SeqDeserializer::new(items.into_iter().map(Strict));
    let value = visitor.visit_seq(&mut access)?;
    access.end()?;
    Ok(value)
}

fn visit_object<'de, V: Visitor<'de>>(
    map: Map<String, Value>,
    visitor: V,
) -> Result<V::Value, Error> {
    let mut access = MapDeserializer::new(map.into_iter().map(|(k, v)| (k, Strict(v))));
    let value = visitor.visit_map(&mut access)?;
    access.end()?;
    Ok(value)
}

impl<'de> de::Deserializer<'de> for Strict {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(b),
            Value::Number(n) => n.deserialize_any(visitor),
            Value::String(s) => visitor.visit_string(s),
            Value::Array(items) => visit_array(items, visitor),
            Value::Object(map) => visit_object(map, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(_) => Err(de::Error::custom(
                "expected a JSON object with named fields, got an array: fields are never taken by \
                 position",
            )),
            other => Strict(other).deserialize_any(visitor),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Value::String(variant) => visitor.visit_enum(Enum {
                variant,
                value: None,
            }),
            Value::Object(map) if map.len() == 1 => {
                let (variant, value) = map.into_iter().next().expect("one entry");
                visitor.visit_enum(Enum {
                    variant,
                    value: Some(value),
                })
            }
            other => Err(de::Error::invalid_type(unexpected(&other), &"an enum")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map identifier
    }
}

fn unexpected(value: &Value) -> de::Unexpected<'_> {
    match value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Number(_) => de::Unexpected::Other("number"),
        Value::String(s) => de::Unexpected::Str(s),
        Value::Array(_) => de::Unexpected::Seq,
        Value::Object(_) => de::Unexpected::Map,
    }
}

/// An enum written as `"Variant"` or `{"Variant": value}`.
struct Enum {
    variant: String,
    value: Option<Value>,
}

impl<'de> EnumAccess<'de> for Enum {
    type Error = Error;
    type Variant = Variant;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Variant), Error> {
        let variant = seed.deserialize(self.variant.into_deserializer())?;
        Ok((variant, Variant(self.value)))
    }
}

struct Variant(Option<Value>);

impl<'de> VariantAccess<'de> for Variant {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        match self.0 {
            None | Some(Value::Null) => Ok(()),
            Some(other) => Err(de::Error::invalid_type(
                unexpected(&other),
                &"a unit variant",
            )),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, Error> {
        match self.0 {
            Some(value) => seed.deserialize(Strict(value)),
            None => Err(de::Error::invalid_type(
                de::Unexpected::UnitVariant,
                &"a newtype variant",
            )),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Some(Value::Array(items)) => visit_array(items, visitor),
            other => Err(de::Error::invalid_type(
                other
                    .as_ref()
                    .map_or(de::Unexpected::UnitVariant, unexpected),
                &"a tuple variant",
            )),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.0 {
            Some(Value::Object(map)) => visit_object(map, visitor),
            other => Err(de::Error::invalid_type(
                other
                    .as_ref()
                    .map_or(de::Unexpected::UnitVariant, unexpected),
                &"a struct variant (a JSON object)",
            )),
        }
    }
}

/// A character that no text field may hold: control characters other than tab, line feed and
/// carriage return (they corrupt logs, files and the downstream systems the bank speaks of,
/// docs/reference/payments.md#validation-duplicates-fees), and the bidirectional embedding, override and isolate
/// controls, which make text display otherwise than it reads ("Trojan Source", CVE-2021-42574).
pub fn forbidden(c: char) -> Option<&'static str> {
    match c {
        '\t' | '\n' | '\r' => None,
        '\0' => Some("NUL, a control character"),
        '\u{1}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => Some("a control character"),
        '\u{202a}' => Some("LEFT-TO-RIGHT EMBEDDING, a bidirectional control"),
        '\u{202b}' => Some("RIGHT-TO-LEFT EMBEDDING, a bidirectional control"),
        '\u{202c}' => Some("POP DIRECTIONAL FORMATTING, a bidirectional control"),
        '\u{202d}' => Some("LEFT-TO-RIGHT OVERRIDE, a bidirectional control"),
        '\u{202e}' => Some("RIGHT-TO-LEFT OVERRIDE, a bidirectional control"),
        '\u{2066}'..='\u{2069}' => Some("a bidirectional isolate control"),
        _ => None,
    }
}

/// A forbidden character found in the body: where (JSON path), which, and at which character.
#[derive(Debug, PartialEq, Eq)]
pub struct ForbiddenText {
    pub path: String,
    pub character: char,
    pub what: &'static str,
    pub position: usize,
}

/// The first forbidden character in any string or object key of `value`, with its JSON path
/// (`creditorName`, `payments[2].remittanceInformationUnstructured`).
pub fn find_forbidden_text(value: &Value) -> Option<ForbiddenText> {
    walk(value, &mut String::new())
}

fn walk(value: &Value, path: &mut String) -> Option<ForbiddenText> {
    match value {
        Value::String(text) => check(text, path),
        Value::Array(items) => items.iter().enumerate().find_map(|(i, item)| {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            let found = walk(item, path);
            path.truncate(len);
            found
        }),
        Value::Object(map) => map.iter().find_map(|(key, item)| {
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key);
            let found = check(key, path).or_else(|| walk(item, path));
            path.truncate(len);
            found
        }),
        _ => None,
    }
}

fn check(text: &str, path: &str) -> Option<ForbiddenText> {
    text.chars().enumerate().find_map(|(position, character)| {
        forbidden(character).map(|what| ForbiddenText {
            path: if path.is_empty() {
                "(body)".to_owned()
            } else {
                path.to_owned()
            },
            character,
            what,
            position: position + 1,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;
    use serde_json::json;

    #[derive(Debug, Deserialize, PartialEq)]
    struct Person {
        id: String,
        name: Option<String>,
        kind: Kind,
        #[serde(default)]
        tags: Vec<String>,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Kind {
        Private,
        Corporate,
    }

    #[test]
    fn objects_read_as_serde_would_read_them() {
        let person: Person = Person::deserialize(Strict(
            json!({"id": "1", "name": null, "kind": "private", "tags": ["a"]}),
        ))
        .unwrap();
        assert_eq!(
            person,
            Person {
                id: "1".into(),
                name: None,
                kind: Kind::Private,
                tags: vec!["a".into()]
            }
        );
        let list: Vec<Person> =
            Vec::deserialize(Strict(json!([{"id": "2", "kind": "corporate"}]))).unwrap();
        assert_eq!(list[0].kind, Kind::Corporate);
        let value = Value::deserialize(Strict(json!({"a": [1, -2, 2.5, true, null]}))).unwrap();
        assert_eq!(value, json!({"a": [1, -2, 2.5, true, null]}));
    }

    #[test]
    fn a_positional_array_is_not_a_struct_at_any_depth() {
        let error = Person::deserialize(Strict(json!(["12345678901", "Kari", "private"])))
            .unwrap_err()
            .to_string();
        assert!(error.contains("got an array"), "{error}");
        assert!(Vec::<Person>::deserialize(Strict(json!([["1", null, "private"]]))).is_err());
    }

    #[test]
    fn control_and_bidi_characters_are_found_with_their_path() {
        let found = find_forbidden_text(&json!({"a": [{"b": "ok"}, {"b": "x\u{202e}y"}]})).unwrap();
        assert_eq!(found.path, "a[1].b");
        assert_eq!((found.character, found.position), ('\u{202e}', 2));
        assert_eq!(
            find_forbidden_text(&json!({"n": "\u{0}"})).unwrap().path,
            "n"
        );
        assert_eq!(
            find_forbidden_text(&json!({"k\u{7}": 1})).unwrap().path,
            "k\u{7}"
        );
        assert!(find_forbidden_text(&json!({"t": "tab\tand\r\nlines, æøå, €"})).is_none());
    }
}
