//! Mock accounts: `POST /v1/sandbox/accounts` and the lookups other areas use.

use super::holdings::{self, usage, usage_schema, Holding};
use super::input::{self, AmountInput, BalanceInput, Warnings};
use super::model::{Account, AccountStatus, Balance, Customer, Money};
use super::{customers, derive_id, numbers, Warned};

mod kind;
use crate::domain::refusal::Refusal;
use crate::domain::Currency;
use crate::store::Store;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// x-accept-fix `longer-names` (default since 2024-10-01): names up to 70 characters.
pub const MAX_NAME: usize = 70;
/// Berlin Group 1.3 `product`.
pub const MAX_PRODUCT: usize = 35;

/// `POST /v1/sandbox/accounts`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateAccount {
    pub customer_number: Option<String>,
    /// `name` is accepted as well (the name the account details show).
    #[serde(alias = "name")]
    pub account_name: Option<String>,
    pub bban: Option<String>,
    /// Optional: derived from `bban`; when both are given they must name the same account.
    pub iban: Option<String>,
    /// Default NOK.
    pub currency: Option<String>,
    pub product: Option<String>,
    /// ISO 20022 code; default CACC.
    pub cash_account_type: Option<String>,
    /// enabled (default), blocked or deleted, in any letter case.
    pub status: Option<String>,
    /// `{amount, currency}`, or just the amount in the account's currency (`0`, `"5000.00"`), as the
    /// platform's developer kit writes it.
    #[schema(schema_with = input::credit_line_schema)]
    pub credit_line: Option<Value>,
    pub balances: Option<Vec<BalanceInput>>,
}

/// The credit line of a request: an amount object, or a bare amount in the account's currency.
pub(crate) fn credit_line(value: &Value, currency: Currency) -> Result<Money, Refusal> {
    const PATH: &str = "creditLine";
    match value {
        Value::Object(_) => {
            let amount: AmountInput = serde_json::from_value(value.clone()).map_err(|e| {
                Refusal::format(
                    PATH,
                    format!("{PATH} is not an amount {{amount, currency}}: {e}"),
                )
            })?;
            input::money(PATH, &amount, currency)
        }
        other => input::major_units(PATH, other, currency),
    }
}

/// Creates a mock account. 404 for an unknown customer, 409 for a BBAN that is taken.
pub fn create(store: &Store, request: &CreateAccount) -> Result<Account, Refusal> {
    Ok(create_warned(store, request)?.value)
}

/// [`create`], with the warnings about what was accepted (a wrong BBAN check digit, a balance type
/// given twice).
pub fn create_warned(store: &Store, request: &CreateAccount) -> Result<Warned<Account>, Refusal> {
    let mut warnings = Warnings::new();
    let number = input::required_text("customerNumber", &request.customer_number, 20)?;
    let (bban, iban) =
        numbers::account_numbers("bban", &request.bban, "iban", &request.iban, &mut warnings)?;
    let currency = match &request.currency {
        Some(c) => input::currency("currency", c)?,
        None => Currency::NOK,
    };
    let given_name = input::text("accountName", &request.account_name, MAX_NAME)?;
    let (cash_account_type, product) = kind::kind_and_product(
        cash_account_type(&request.cash_account_type)?,
        input::text("product", &request.product, MAX_PRODUCT)?,
        given_name.as_deref(),
        &mut warnings,
    );
    let name = given_name.unwrap_or_else(|| product.clone());
    let status = parse_status("status", &request.status)?;
    let credit_line = request
        .credit_line
        .as_ref()
        .filter(|c| !c.is_null())
        .map(|c| credit_line(c, currency))
        .transpose()?;
    let balances = input::balances(
        "balances",
        request.balances.as_deref().unwrap_or_default(),
        currency,
        &mut warnings,
    )?;
    let customer = customers::by_number(store, "customerNumber", &number)?;
    let account = Account {
        id: derive_id("account", bban.as_str()),
        customer_id: customer.id,
        customer_number: customer.customer_number,
        bban: bban.as_str().to_owned(),
        iban: iban.as_str().to_owned(),
        currency,
        name,
        product,
        cash_account_type,
        status,
        credit_line,
        balances,
        payments_allowed: true,
    };
    let _guard = store.locks().mock_data();
    insert(store, &account)?;
    Ok(Warned {
        value: account,
        warnings,
    })
}

/// An ISO 20022 cash account type, when one is given.
pub(crate) fn cash_account_type(value: &Option<String>) -> Result<Option<String>, Refusal> {
    match input::text("cashAccountType", value, 4)? {
        None => Ok(None),
        Some(t) if input::CASH_ACCOUNT_TYPES.contains(&t.as_str()) => Ok(Some(t)),
        Some(t) => Err(Refusal::format(
            "cashAccountType",
            format!(
                "cashAccountType '{t}' is not an ISO 20022 cash account type; use one of {}",
                input::CASH_ACCOUNT_TYPES.join(", ")
            ),
        )),
    }
}

/// An account status in any letter case (`ENABLED` as the platform's developer kit writes it).
pub(crate) fn parse_status(path: &str, status: &Option<String>) -> Result<AccountStatus, Refusal> {
    match status.as_deref() {
        None => Ok(AccountStatus::Enabled),
        Some(s) => AccountStatus::parse(&s.to_ascii_lowercase()).ok_or_else(|| {
            Refusal::format(
                path,
                format!("{path} '{s}' is not an account status; use enabled, blocked or deleted"),
            )
        }),
    }
}

/// Stores a new account (the caller holds the write lock). 409 when the BBAN is taken.
pub(crate) fn insert(store: &Store, account: &Account) -> Result<(), Refusal> {
    let table = store.table::<Account>()?;
    if table.find(|a| a.bban == account.bban)?.is_some() || !table.insert_new(account)? {
        return Err(Refusal::conflict(
            "bban",
            format!("an account with bban {} already exists", account.bban),
        ));
    }
    Ok(())
}

/// The account with this BBAN (11 digits, no separators), if any.
pub fn by_bban(store: &Store, bban: &str) -> Result<Option<Account>, Refusal> {
    Ok(store.table::<Account>()?.find(|a| a.bban == bban)?)
}

/// A mock account as the sandbox answers it: Berlin Group `accountDetails` plus the sandbox's ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountView {
    /// The `mockAccountId`.
    pub id: String,
    /// The same value, under Berlin Group's name.
    pub resource_id: String,
    pub customer_number: String,
    pub owner_name: String,
    pub bban: String,
    pub iban: String,
    pub currency: Currency,
    pub name: String,
    pub product: String,
    pub cash_account_type: String,
    pub status: AccountStatus,
    /// PRIV for a private customer's account, ORGA for a corporation's.
    #[schema(schema_with = usage_schema)]
    pub usage: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_line: Option<Money>,
    pub balances: Vec<Balance>,
}

impl AccountView {
    pub fn new(account: Account, owner: &Customer) -> AccountView {
        AccountView {
            resource_id: account.id.clone(),
            id: account.id,
            customer_number: account.customer_number,
            owner_name: owner.name.clone(),
            bban: account.bban,
            iban: account.iban,
            currency: account.currency,
            name: account.name,
            product: account.product,
            cash_account_type: account.cash_account_type,
            status: account.status,
            usage: usage(owner.customer_type),
            credit_line: account.credit_line,
            balances: account.balances,
        }
    }
}

impl Holding for Account {
    const KIND: &'static str = "account";
    type View = AccountView;
    fn id(&self) -> &str {
        &self.id
    }
    fn customer_id(&self) -> &str {
        &self.customer_id
    }
    fn customer_number(&self) -> &str {
        &self.customer_number
    }
    fn order(&self) -> &str {
        &self.bban
    }
    fn balances(&self) -> &[Balance] {
        &self.balances
    }
    fn into_view(self, holder: &Customer) -> AccountView {
        AccountView::new(self, holder)
    }
}

/// Creates an account and answers it as a view, with the warnings.
pub fn create_view(store: &Store, request: &CreateAccount) -> Result<Warned<AccountView>, Refusal> {
    create_warned(store, request)?.try_map(|account| holdings::view(store, account))
}

#[cfg(test)]
#[allow(clippy::inconsistent_digit_grouping)] // BBAN stems read as bank.class.serial
pub(crate) mod tests;
