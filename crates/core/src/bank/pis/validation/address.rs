//! `creditorAddress` and the structured-address rule.
//!
//! Address parts follow the bank (docs/reference/payments.md#validation-duplicates-fees: `street`, `buildingNumber`,
//! `postalCode`, `townName`, `country`); the Berlin Group spellings `streetName` and `postCode` are accepted as
//! aliases. `city` is deprecated (replaced by `townName`): it is accepted with a WARNING and copied into
//! `townName`; both given with different values is refused.
//!
//! The structured-address rule (docs/reference/payments.md#validation-duplicates-fees): SEPA and SWIFT payments
//! need the creditor's name, town name and country code and the creditor agent's BIC. The sandbox
//! enforces it from 13 August 2026 00:00 UTC for the products where
//! [`crate::bank::pis::model::PaymentProduct::needs_structured_address`] holds (SEPA and cross-border); before that
//! date a missing part only gives a WARNING. Domestic NOK products are not covered. Debtor data is inferred
//! by the bank, so nothing about the debtor is checked.

use super::fields::{at, opt_str, req_obj, req_str, Object};
use super::text::{check_charset, check_text, UNLIMITED};
use super::Ctx;
use crate::bank::pis::model::Address;
use crate::domain::refusal::{Code, Refusal};
use crate::domain::Country;
use time::macros::datetime;
use time::OffsetDateTime;

/// creditorAddress.street holds at most 70 characters (docs/reference/payments.md#validation-duplicates-fees).
pub const MAX_STREET_CHARS: usize = 70;

/// When the sandbox starts refusing SEPA and SWIFT payments without structured creditor data.
pub const SANDBOX_ENFORCEMENT: OffsetDateTime = datetime!(2026-08-13 00:00 UTC);

/// An optional address part that may come under either of two names; both given must agree.
fn aliased(
    address: &Object,
    path: &str,
    name: &str,
    alias: &str,
    max: usize,
) -> Result<Option<String>, Refusal> {
    let main = opt_str(address, path, name)?;
    let other = opt_str(address, path, alias)?;
    if let (Some(a), Some(b)) = (main, other) {
        if a != b {
            let alias_path = at(path, alias);
            return Err(Refusal::format(
                &alias_path,
                format!(
                    "{alias_path} ('{b}') and {path}.{name} ('{a}') name the same part and differ; \
                     send {name} only."
                ),
            ));
        }
    }
    let (field, value) = match (main, other) {
        (Some(a), _) => (name, a),
        (None, Some(b)) => (alias, b),
        (None, None) => return Ok(None),
    };
    check_text(&at(path, field), value, 0, max)?;
    Ok(Some(value.to_string()))
}

/// `creditorAddress` at `prefix` (required): the parts, the deprecated `city`, and the country.
pub fn creditor_address(ctx: &mut Ctx, object: &Object, prefix: &str) -> Result<Address, Refusal> {
    let path = at(prefix, "creditorAddress");
    let address = req_obj(object, prefix, "creditorAddress")?;
    let street = aliased(address, &path, "street", "streetName", MAX_STREET_CHARS)?;
    let building_number = opt_str(address, &path, "buildingNumber")?.map(str::to_string);
    if let Some(text) = &building_number {
        check_charset(&at(&path, "buildingNumber"), text)?;
    }
    let postal_code = aliased(address, &path, "postalCode", "postCode", UNLIMITED)?;
    let town_name = opt_str(address, &path, "townName")?;
    let city = opt_str(address, &path, "city")?;
    if let Some(town) = town_name {
        check_charset(&at(&path, "townName"), town)?;
    }
    let city_path = at(&path, "city");
    if let Some(city) = city {
        check_charset(&city_path, city)?;
        if let Some(town) = town_name.filter(|t| *t != city) {
            return Err(Refusal::format(
                &city_path,
                format!(
                    "{city_path} ('{city}') differs from {path}.townName ('{town}'); city is \
                     deprecated, send townName only."
                ),
            ));
        }
        ctx.warn(
            Code::FormatError,
            &city_path,
            format!(
                "{city_path} is deprecated and replaced by townName in payment APIs; its value was \
                 used as townName. Send townName instead."
            ),
        );
    }
    let country_path = at(&path, "country");
    let country_text = req_str(address, &path, "country")?;
    let country = Country::parse(country_text)
        .map_err(|e| Refusal::format(&country_path, format!("{country_path}: {e}.")))?;
    Ok(Address {
        street,
        building_number,
        postal_code,
        town_name: town_name.or(city).map(str::to_string),
        country: Some(country),
    })
}

/// Applies the structured-address rule to one order at `prefix` (see the module documentation):
/// from [`SANDBOX_ENFORCEMENT`] a missing part is 400 FORMAT_ERROR at the first missing part (the
/// text lists them all); before, one WARNING per missing part.
pub fn structured_address_rule(
    ctx: &mut Ctx,
    prefix: &str,
    creditor_name: &str,
    address: &Address,
    creditor_agent: Option<&str>,
) -> Result<(), Refusal> {
    if !ctx.product.needs_structured_address() {
        return Ok(());
    }
    let blank = |s: Option<&str>| s.is_none_or(|s| s.trim().is_empty());
    let mut missing = Vec::new();
    if creditor_name.trim().is_empty() {
        missing.push(("creditorName", "the creditor's name"));
    }
    if blank(address.town_name.as_deref()) {
        missing.push(("creditorAddress.townName", "the creditor's town name"));
    }
    if address.country.is_none() {
        missing.push(("creditorAddress.country", "the creditor's country code"));
    }
    if blank(creditor_agent) {
        missing.push(("creditorAgent", "the creditor agent's BIC"));
    }
    if missing.is_empty() {
        return Ok(());
    }
    let rule = format!(
        "{} payments go over SEPA or the SWIFT network, where structured addresses are mandatory \
         (enforced in the sandbox from 13 August 2026, in production from 15 November 2026): \
         the creditor's name, town name and country code and the creditor agent's BIC must be given.",
        ctx.product.path()
    );
    if ctx.now >= SANDBOX_ENFORCEMENT {
        let parts: Vec<&str> = missing.iter().map(|(_, what)| *what).collect();
        let path = at(prefix, missing[0].0);
        return Err(Refusal::format(
            &path,
            format!("Missing: {}. {rule}", parts.join(", ")),
        ));
    }
    for (field, what) in missing {
        ctx.warn(
            Code::FormatError,
            &at(prefix, field),
            format!("{what} is missing; from 13 August 2026 this will be refused. {rule}"),
        );
    }
    Ok(())
}
