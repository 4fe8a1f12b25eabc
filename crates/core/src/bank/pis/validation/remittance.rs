//! Remittance information: `remittanceInformationUnstructured` (1 to 140 characters),
//! `remittanceInformationStructured` (one reference) and `remittanceInformationStructuredArray`
//! (1 to [`MAX_STRUCTURED_ENTRIES`] references). The three are mutually exclusive (a KID or OCR goes
//! in the structured field, free text in the unstructured one: docs/interface.md#payments).
//!
//! KID scope: a structured reference is checked as a KID (mod 10 or mod 11, [`Kid::parse`]) when its
//! `referenceType` is `KID` or `OCR` (any letter case), or, for the domestic products, when it has no
//! `referenceType` at all, since a bare structured reference on a Norwegian payment is a KID.
//! References of any other type (e.g. `SCOR`, the ISO 11649 creditor reference) are only checked
//! for length and characters. An empty KID is 400 KID_MISSING, a wrong one 400 KID_INVALID (since the
//! bank's release 1.7.0 KID errors are 400: docs/reference/payments.md#validation-duplicates-fees).

use super::fields::{as_object, at, get, index, opt_array, opt_str, present, wrong_type, Object};
use super::text::{check_charset, check_text, opt_text};
use super::Ctx;
use crate::bank::pis::model::{Remittance, StructuredReference};
use crate::domain::refusal::{Code, Refusal};
use crate::domain::{Kid, KidError};
use serde_json::Value;

/// remittanceInformationUnstructured holds 1 to 140 characters (docs/reference/payments.md#validation-duplicates-fees).
pub const MAX_UNSTRUCTURED_CHARS: usize = 140;
/// Each structured field holds 1 to 35 characters (docs/reference/payments.md#validation-duplicates-fees).
pub const MAX_STRUCTURED_CHARS: usize = 35;
/// The sandbox's cap on `remittanceInformationStructuredArray` entries. Berlin Group sets none;
/// 999 matches the most references a Norwegian OCR giro payment record can carry.
pub const MAX_STRUCTURED_ENTRIES: usize = 999;

const UNSTRUCTURED: &str = "remittanceInformationUnstructured";
const STRUCTURED: &str = "remittanceInformationStructured";
const ARRAY: &str = "remittanceInformationStructuredArray";

/// The remittance of the order at `prefix`, if any.
pub fn remittance(
    ctx: &mut Ctx,
    object: &Object,
    prefix: &str,
) -> Result<Option<Remittance>, Refusal> {
    let has_unstructured = present(object, UNSTRUCTURED);
    let has_structured = present(object, STRUCTURED);
    let has_array = present(object, ARRAY);
    if has_array && (has_structured || has_unstructured) {
        let path = at(prefix, ARRAY);
        return Err(Refusal::format(
            &path,
            format!(
                "{path} cannot be combined with {}: remittance information is either structured \
                 (KID/OCR references) or free text, and the structured references go in one field.",
                if has_structured {
                    STRUCTURED
                } else {
                    UNSTRUCTURED
                }
            ),
        ));
    }
    if has_structured && has_unstructured {
        let path = at(prefix, STRUCTURED);
        return Err(Refusal::format(
            &path,
            format!(
                "{path} and {UNSTRUCTURED} are mutually exclusive: put a KID or OCR reference in \
                 {STRUCTURED}, or a free-text message in {UNSTRUCTURED}, not both."
            ),
        ));
    }
    if has_unstructured {
        let text =
            opt_text(object, prefix, UNSTRUCTURED, 1, MAX_UNSTRUCTURED_CHARS)?.expect("present");
        return Ok(Some(Remittance::Unstructured { text }));
    }
    if has_structured {
        let path = at(prefix, STRUCTURED);
        let entry = as_object(get(object, STRUCTURED).expect("present"), &path)?;
        let reference = structured(ctx, entry, &path)?;
        return Ok(Some(Remittance::Structured {
            references: vec![reference],
            as_array: false,
        }));
    }
    let Some(entries) = opt_array(object, prefix, ARRAY)? else {
        return Ok(None);
    };
    let path = at(prefix, ARRAY);
    if entries.is_empty() || entries.len() > MAX_STRUCTURED_ENTRIES {
        return Err(Refusal::format(
            &path,
            format!(
                "{path} has {} entries; it must hold 1 to {MAX_STRUCTURED_ENTRIES}.",
                entries.len()
            ),
        ));
    }
    let references = entries
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            let entry_path = index(&path, i);
            structured(ctx, as_object(entry, &entry_path)?, &entry_path)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(Remittance::Structured {
        references,
        as_array: true,
    }))
}

/// Whether a reference of this type (or without one) must be a KID; see the module documentation.
pub fn is_kid_type(reference_type: Option<&str>, domestic: bool) -> bool {
    match reference_type {
        None => domestic,
        Some(t) => t.eq_ignore_ascii_case("KID") || t.eq_ignore_ascii_case("OCR"),
    }
}

/// One structured reference object at `path`.
fn structured(ctx: &mut Ctx, entry: &Object, path: &str) -> Result<StructuredReference, Refusal> {
    let reference_type = opt_text(entry, path, "referenceType", 1, MAX_STRUCTURED_CHARS)?;
    let reference_issuer = opt_text(entry, path, "referenceIssuer", 1, MAX_STRUCTURED_CHARS)?;
    let reference_path = at(path, "reference");
    let reference = if is_kid_type(reference_type.as_deref(), ctx.product.is_domestic()) {
        kid(entry, path, &reference_path)?
    } else {
        match opt_str(entry, path, "reference")? {
            Some(text) => {
                check_text(&reference_path, text, 1, MAX_STRUCTURED_CHARS)?;
                text.to_string()
            }
            None => return Err(super::fields::missing(entry, path, "reference")),
        }
    };
    Ok(StructuredReference {
        reference,
        reference_type,
        reference_issuer,
    })
}

/// A KID reference: absent or blank is KID_MISSING, anything Kid::parse refuses is KID_INVALID.
fn kid(entry: &Object, path: &str, reference_path: &str) -> Result<String, Refusal> {
    let text = match get(entry, "reference") {
        None => "",
        Some(Value::String(s)) => s.as_str(),
        Some(other) => return Err(wrong_type(reference_path, "a string", other)),
    };
    // Characters first, so an emoji gets the downstream reason rather than "only digits".
    check_charset(reference_path, text)?;
    match Kid::parse(text) {
        Ok(kid) => Ok(kid.as_str().to_string()),
        Err(KidError::Missing) => Err(Refusal::new(
            Code::KidMissing,
            Some(reference_path),
            format!(
                "{reference_path} is empty, but a KID is required when {path} is a KID/OCR \
                 reference (referenceType KID or OCR, or none on a domestic payment)."
            ),
        )),
        Err(KidError::Invalid(e)) => Err(Refusal::new(
            Code::KidInvalid,
            Some(reference_path),
            format!("{reference_path}: {e}."),
        )),
    }
}
