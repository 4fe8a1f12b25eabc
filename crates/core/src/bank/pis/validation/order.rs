//! One payment order: the fields of the bank's payment request (docs/interface.md#payments), in its order, producing a
//! [`PaymentOrder`]. A single payment is one order at the body's top level; a bulk payment's entries
//! are orders at `payments[i]` sharing the top-level debtor account and execution date.
//!
//! Fields this sandbox does not model (`endToEndIdentification`, `chargeBearer`, `ultimateCreditor`,
//! ...) are accepted and ignored, as Berlin Group clients send them routinely; nothing is refused for
//! being unknown.

use super::account::{creditor_account, creditor_agent, debtor_account};
use super::address::{creditor_address, structured_address_rule};
use super::amount::instructed_amount;
use super::dates::requested_execution_date;
use super::fields::{at, opt_str, present, Object};
use super::remittance::remittance;
use super::text::{check_charset, opt_text};
use super::Ctx;
use crate::bank::pis::model::{DebtorAccount, PaymentOrder, PaymentProduct};
use crate::domain::refusal::{Code, Refusal};
use time::Date;

/// creditorName holds at most 70 characters (docs/interface.md#payments).
pub const MAX_CREDITOR_NAME_CHARS: usize = 70;
/// ultimateDebtor holds at most 70 characters (docs/reference/payments.md#validation-duplicates-fees).
pub const MAX_ULTIMATE_DEBTOR_CHARS: usize = 70;
/// The bank's purposeCode list (docs/interface.md#payments).
pub const PURPOSE_CODES: [&str; 14] = [
    "INVS", "SALA", "IDCP", "CASH", "CORT", "INTC", "PENS", "SSBE", "SUPP", "TAXS", "TREA", "VATX",
    "LOAN", "OTHR",
];
/// serviceLevel values for cross-border payments (docs/reference/payments.md#endpoints-and-products): SEPA, urgent,
/// non-urgent, same-day value.
pub const SERVICE_LEVELS: [&str; 4] = ["SEPA", "URGP", "NURG", "SDVA"];

/// What a bulk payment gives once for all its orders.
#[derive(Debug, Clone)]
pub struct Shared {
    pub debtor_account: DebtorAccount,
    pub requested_execution_date: Option<Date>,
}

/// Validates the order at `prefix` (`""` for a single payment, `payments[i]` in a bulk). Without
/// `shared` the debtor account and execution date are read from the order itself.
pub fn order(
    ctx: &mut Ctx,
    object: &Object,
    prefix: &str,
    shared: Option<&Shared>,
) -> Result<PaymentOrder, Refusal> {
    let product = ctx.product;
    let instructed = instructed_amount(object, prefix, product)?;
    let creditor_name = creditor_name(object, prefix)?;
    let creditor_account = creditor_account(object, prefix, product, &instructed)?;
    let creditor_agent = creditor_agent(object, prefix)?;
    let creditor_address = creditor_address(ctx, object, prefix)?;
    let (debtor_account, execution_date) = match shared {
        None => (
            debtor_account(object, prefix)?,
            requested_execution_date(ctx, object, prefix)?,
        ),
        Some(shared) => {
            for name in ["debtorAccount", "requestedExecutionDate"] {
                if present(object, name) {
                    let path = at(prefix, name);
                    ctx.warn(
                        Code::FormatError,
                        &path,
                        format!(
                            "{path} was ignored: in a bulk payment {name} is given once, at the \
                             top level, for all payments."
                        ),
                    );
                }
            }
            (
                shared.debtor_account.clone(),
                shared.requested_execution_date,
            )
        }
    };
    let ultimate_debtor = opt_text(
        object,
        prefix,
        "ultimateDebtor",
        0,
        MAX_ULTIMATE_DEBTOR_CHARS,
    )?;
    let purpose_code = listed(object, prefix, "purposeCode", &PURPOSE_CODES)?;
    let remittance = remittance(ctx, object, prefix)?;
    let service_level = service_level(object, prefix, product)?;
    structured_address_rule(
        ctx,
        prefix,
        &creditor_name,
        &creditor_address,
        creditor_agent.as_deref(),
    )?;
    Ok(PaymentOrder {
        instructed_amount: instructed,
        creditor_name,
        creditor_account,
        creditor_address,
        creditor_agent,
        debtor_account,
        ultimate_debtor,
        purpose_code,
        remittance,
        requested_execution_date: execution_date,
        service_level,
    })
}

/// creditorName: required, non-blank (a payment to nobody cannot be booked), at most 70 characters.
fn creditor_name(object: &Object, prefix: &str) -> Result<String, Refusal> {
    let path = at(prefix, "creditorName");
    let name = super::text::req_text(object, prefix, "creditorName", 1, MAX_CREDITOR_NAME_CHARS)?;
    if name.trim().is_empty() {
        return Err(Refusal::format(&path, format!("{path} must not be blank.")));
    }
    Ok(name)
}

/// An optional code field that must be one of `allowed`.
fn listed(
    object: &Object,
    prefix: &str,
    name: &str,
    allowed: &[&str],
) -> Result<Option<String>, Refusal> {
    let path = at(prefix, name);
    let Some(code) = opt_str(object, prefix, name)? else {
        return Ok(None);
    };
    check_charset(&path, code)?;
    if !allowed.contains(&code) {
        return Err(Refusal::format(
            &path,
            format!("{path} '{code}' is not one of {}.", allowed.join(", ")),
        ));
    }
    Ok(Some(code.to_string()))
}

/// serviceLevel: cross-border only, one of [`SERVICE_LEVELS`].
fn service_level(
    object: &Object,
    prefix: &str,
    product: PaymentProduct,
) -> Result<Option<String>, Refusal> {
    if product != PaymentProduct::CrossBorderCreditTransfers && present(object, "serviceLevel") {
        let path = at(prefix, "serviceLevel");
        return Err(Refusal::format(
            &path,
            format!(
                "{path} applies to cross-border-credit-transfers only, not to {}.",
                product.path()
            ),
        ));
    }
    listed(object, prefix, "serviceLevel", &SERVICE_LEVELS)
}
