//! Editing mock data in place (the workbench's Rename customer, Edit account, Edit card account): the
//! fields a bank could change on a living record — names, product, type, status, credit line or limit,
//! balances, the card's related account. What identifies a record (customer number, BBAN, IBAN, masked
//! PAN, currency, owner) may be sent back unchanged, so a form can send what it read, but a change is
//! refused at its field: ids, transactions and payments hang on them.
//!
//! A field left out keeps its value; `creditLine`, `creditLimit` and `relatedAccount` set to `null` are
//! removed; `balances` replaces the whole list. Each edit reads and writes under the mock-data lock, so
//! two edits of one record do not lose each other's fields.

use super::accounts::{self, AccountView, MAX_NAME, MAX_PRODUCT};
use super::card_accounts::CardAccountView;
use super::customers::{self, CustomerView};
use super::input::{self, AmountInput, BalanceInput, Warnings};
use super::model::{Account, CardAccount, Customer};
use super::{holdings, numbers, Warned};
use crate::domain::refusal::Refusal;
use crate::store::Store;
use serde::{Deserialize, Deserializer};
use serde_json::Value;

/// Reads a field that may be `null` as `Some(Value::Null)`, so "absent" and "remove" differ.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// `PUT /workbench/api/sandbox/customers/{customerId}`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateCustomer {
    /// The new name, 1 to 70 characters.
    pub customer_name: Option<String>,
    /// `customerName` under the sandbox's first name for it.
    pub name: Option<String>,
    /// May be repeated; a different number is refused.
    pub customer_number: Option<String>,
    /// May be repeated; a different type is refused.
    pub customer_type: Option<String>,
    /// `customerType` under the sandbox's first name for it.
    #[serde(rename = "type")]
    pub type_: Option<String>,
}

/// `PUT /workbench/api/sandbox/accounts/{mockAccountId}`: what a bank may change on an account.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateAccount {
    pub account_name: Option<String>,
    /// `accountName` under the name the account details show.
    pub name: Option<String>,
    pub product: Option<String>,
    /// ISO 20022 code, e.g. CACC, SVGS.
    pub cash_account_type: Option<String>,
    /// enabled, blocked or deleted, in any letter case.
    pub status: Option<String>,
    /// `{amount, currency}` or a bare amount in the account's currency; `null` removes the credit line.
    #[serde(default, deserialize_with = "present")]
    #[schema(schema_with = crate::bank::mock::input::credit_line_schema)]
    pub credit_line: Option<Value>,
    /// Replaces every balance.
    pub balances: Option<Vec<BalanceInput>>,
    /// May be repeated; a different value is refused.
    pub customer_number: Option<String>,
    /// May be repeated; a different value is refused.
    pub bban: Option<String>,
    /// May be repeated; a different value is refused.
    pub iban: Option<String>,
    /// May be repeated; a different value is refused.
    pub currency: Option<String>,
}

/// `PUT /workbench/api/sandbox/card-accounts/{mockCardAccountId}`: what a bank may change on a card account.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateCardAccount {
    pub name: Option<String>,
    /// `name` under the name accounts use.
    pub account_name: Option<String>,
    pub product: Option<String>,
    /// enabled, blocked or deleted, in any letter case.
    pub status: Option<String>,
    /// `{amount, currency}` in the card account's currency; `null` removes the limit.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<AmountInput>)]
    pub credit_limit: Option<Value>,
    /// Replaces every balance.
    pub balances: Option<Vec<BalanceInput>>,
    /// The BBAN of one of the owner's accounts the card settles against; `null` removes it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    pub related_account: Option<Value>,
    /// May be repeated; a different value is refused.
    pub customer_number: Option<String>,
    /// May be repeated; a different value is refused.
    pub masked_pan: Option<String>,
    /// May be repeated; a different value is refused.
    pub currency: Option<String>,
}

/// Refuses `given` when it names another value than `current` (compared without spaces and dots, as
/// numbers are written).
fn unchanged(path: &str, given: &Option<String>, current: &str, why: &str) -> Result<(), Refusal> {
    let plain = |t: &str| -> String {
        t.chars()
            .filter(|c| !matches!(c, ' ' | '.'))
            .collect::<String>()
            .to_ascii_uppercase()
    };
    match given.as_deref() {
        Some(given) if plain(given) != plain(current) => Err(Refusal::format(
            path,
            format!("{path} cannot be changed (it is {current}, the request says {given}): {why}"),
        )),
        _ => Ok(()),
    }
}

/// One field given under either of its two names (the path of the one given); both given must agree.
fn either<'a>(
    (first, a): (&'static str, &'a Option<String>),
    (second, b): (&'static str, &'a Option<String>),
) -> Result<(&'static str, &'a Option<String>), Refusal> {
    match (a, b) {
        (Some(x), Some(y)) if x.trim() != y.trim() => Err(Refusal::format(
            second,
            format!("{second} and {first} name the same field; give one, or both alike"),
        )),
        (None, Some(_)) => Ok((second, b)),
        _ => Ok((first, a)),
    }
}

/// A new value for a text field that may not be emptied.
fn new_text(path: &str, value: &Option<String>, max: usize) -> Result<Option<String>, Refusal> {
    match value {
        None => Ok(None),
        Some(_) => input::required_text(path, value, max).map(Some),
    }
}

/// Renames a customer (named by its `customerId` or its customer number); 200 the customer as the list
/// shows it. 404 RESOURCE_UNKNOWN at `customerId`.
pub fn update_customer(
    store: &Store,
    id: &str,
    request: &UpdateCustomer,
) -> Result<CustomerView, Refusal> {
    let _guard = store.locks().mock_data();
    let mut customer = find_customer(store, id)?;
    unchanged(
        "customerNumber",
        &request.customer_number,
        &customer.customer_number,
        "the number identifies the customer; create a new customer instead",
    )?;
    let (type_path, given_type) = either(
        ("customerType", &request.customer_type),
        ("type", &request.type_),
    )?;
    if let Some(given) = given_type {
        let current = serde_json::to_value(customer.customer_type)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        if !given.eq_ignore_ascii_case(&current) {
            return Err(Refusal::format(
                type_path,
                format!("{type_path} cannot be changed (it is {current}): it follows from the customer number"),
            ));
        }
    }
    let (name_path, name) = either(
        ("customerName", &request.customer_name),
        ("name", &request.name),
    )?;
    if let Some(name) = new_text(name_path, name, customers::MAX_NAME)? {
        customer.name = name;
    }
    store.table::<Customer>()?.insert(&customer)?;
    customers::list(store)?
        .into_iter()
        .find(|c| c.customer.customer_id == customer.id)
        .ok_or_else(|| Refusal::internal("the customer just written is not listed"))
}

fn find_customer(store: &Store, id: &str) -> Result<Customer, Refusal> {
    let table = store.table::<Customer>()?;
    if let Some(customer) = table.find(|c| c.id == id)? {
        return Ok(customer);
    }
    let number: String = id.chars().filter(|c| *c != ' ').collect();
    table
        .get(&number)?
        .ok_or_else(|| Refusal::unknown("customerId", "customer", id))
}

/// Changes an account's editable fields; 200 the account, with warnings about balances accepted.
pub fn update_account(
    store: &Store,
    id: &str,
    request: &UpdateAccount,
) -> Result<Warned<AccountView>, Refusal> {
    let _guard = store.locks().mock_data();
    let mut account = holdings::by_id::<Account>(store, "mockAccountId", id)?;
    let why =
        "transactions, consents and payments name the account by it; create a new account instead";
    unchanged(
        "customerNumber",
        &request.customer_number,
        &account.customer_number,
        why,
    )?;
    unchanged("bban", &request.bban, &account.bban, why)?;
    unchanged("iban", &request.iban, &account.iban, why)?;
    unchanged(
        "currency",
        &request.currency,
        account.currency.code(),
        "the balances and transactions are in it; create a new account instead",
    )?;
    let mut warnings = Warnings::new();
    if let Some(product) = new_text("product", &request.product, MAX_PRODUCT)? {
        account.product = product;
    }
    let (name_path, name) = either(
        ("accountName", &request.account_name),
        ("name", &request.name),
    )?;
    if let Some(name) = new_text(name_path, name, MAX_NAME)? {
        account.name = name;
    }
    if let Some(kind) = accounts::cash_account_type(&request.cash_account_type)? {
        account.cash_account_type = kind;
    }
    if request.status.is_some() {
        account.status = accounts::parse_status("status", &request.status)?;
    }
    match &request.credit_line {
        None => {}
        Some(Value::Null) => account.credit_line = None,
        Some(value) => account.credit_line = Some(accounts::credit_line(value, account.currency)?),
    }
    if let Some(balances) = &request.balances {
        account.balances = input::balances("balances", balances, account.currency, &mut warnings)?;
    }
    store.table::<Account>()?.insert(&account)?;
    Ok(Warned {
        value: holdings::view(store, account)?,
        warnings,
    })
}

/// Changes a card account's editable fields; 200 the card account, with warnings.
pub fn update_card_account(
    store: &Store,
    id: &str,
    request: &UpdateCardAccount,
) -> Result<Warned<CardAccountView>, Refusal> {
    let _guard = store.locks().mock_data();
    let mut card = holdings::by_id::<CardAccount>(store, "mockCardAccountId", id)?;
    let why = "it identifies the card account; create a new card account instead";
    unchanged(
        "customerNumber",
        &request.customer_number,
        &card.customer_number,
        why,
    )?;
    let masked = |t: &str| t.replace(['x', 'X'], "*");
    unchanged(
        "maskedPan",
        &request.masked_pan.as_deref().map(masked),
        &masked(&card.masked_pan),
        why,
    )?;
    unchanged(
        "currency",
        &request.currency,
        card.currency.code(),
        "the balances and transactions are in it; create a new card account instead",
    )?;
    let mut warnings = Warnings::new();
    if let Some(product) = new_text("product", &request.product, MAX_PRODUCT)? {
        card.product = product;
    }
    let (name_path, name) = either(
        ("name", &request.name),
        ("accountName", &request.account_name),
    )?;
    if let Some(name) = new_text(name_path, name, MAX_NAME)? {
        card.name = name;
    }
    if request.status.is_some() {
        card.status = accounts::parse_status("status", &request.status)?;
    }
    match &request.credit_limit {
        None => {}
        Some(Value::Null) => card.credit_limit = None,
        Some(value) => {
            let amount: AmountInput = serde_json::from_value(value.clone()).map_err(|e| {
                Refusal::format(
                    "creditLimit",
                    format!("creditLimit is not an amount {{amount, currency}}: {e}"),
                )
            })?;
            card.credit_limit = Some(input::money("creditLimit", &amount, card.currency)?);
        }
    }
    if let Some(balances) = &request.balances {
        card.balances = input::balances("balances", balances, card.currency, &mut warnings)?;
    }
    match &request.related_account {
        None => {}
        Some(Value::Null) => card.related_account = None,
        Some(Value::String(text)) if text.trim().is_empty() => card.related_account = None,
        Some(Value::String(text)) => {
            let bban = numbers::bban("relatedAccount", text, &mut warnings)?;
            match accounts::by_bban(store, bban.as_str())? {
                Some(a) if a.customer_id == card.customer_id => card.related_account = Some(a.bban),
                _ => {
                    return Err(Refusal::unknown(
                        "relatedAccount",
                        &format!("account of customer {}", card.customer_number),
                        bban.as_str(),
                    ))
                }
            }
        }
        Some(_) => {
            return Err(Refusal::format(
                "relatedAccount",
                "relatedAccount is the BBAN of one of the owner's accounts (a string), or null",
            ))
        }
    }
    store.table::<CardAccount>()?.insert(&card)?;
    Ok(Warned {
        value: holdings::view(store, card)?,
        warnings,
    })
}

#[cfg(test)]
#[allow(clippy::inconsistent_digit_grouping)] // BBAN stems read as bank.class.serial
mod tests;
