//! Mock accounts: `POST /v1/sandbox/accounts` and the lookups other areas use.

use super::customers;
use super::derive_id;
use super::input::{self, AmountInput, BalanceInput};
use super::model::{Account, AccountStatus, Balance, Customer, CustomerType, Money};
use crate::domain::{Bban, Currency, Iban};
use crate::refusal::Refusal;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// x-accept-fix `longer-names` (default since 2024-10-01): names up to 70 characters.
pub const MAX_NAME: usize = 70;
/// Berlin Group 1.3 `product`.
pub const MAX_PRODUCT: usize = 35;

/// `POST /v1/sandbox/accounts`.
#[derive(Debug, Clone, Default, Deserialize)]
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
    /// enabled (default), blocked or deleted.
    pub status: Option<String>,
    pub credit_line: Option<AmountInput>,
    pub balances: Option<Vec<BalanceInput>>,
}

/// The account numbers of a request: the BBAN, and the IBAN derived from or checked against it.
pub(crate) fn account_numbers(
    bban_path: &str,
    bban: &Option<String>,
    iban_path: &str,
    iban: &Option<String>,
) -> Result<(Bban, Iban), Refusal> {
    let bban = bban
        .as_deref()
        .filter(|b| !b.trim().is_empty())
        .map(|b| input::bban(bban_path, b))
        .transpose()?;
    let iban = iban
        .as_deref()
        .filter(|i| !i.trim().is_empty())
        .map(|i| input::iban(iban_path, i))
        .transpose()?;
    if let Some(iban) = &iban {
        if iban.country() != "NO" {
            return Err(Refusal::format(
                iban_path,
                format!(
                    "{iban_path} '{iban}' is not Norwegian; accounts of this bank have NO IBANs"
                ),
            ));
        }
    }
    match (bban, iban) {
        (Some(bban), Some(iban)) if iban.bban_part() != bban.as_str() => Err(Refusal::format(
            iban_path,
            format!(
                "{iban_path} '{iban}' names account {}, but {bban_path} is {bban}; they must name the same account",
                iban.bban_part()
            ),
        )),
        (Some(bban), Some(iban)) => Ok((bban, iban)),
        (Some(bban), None) => {
            let iban = Iban::from_norwegian_bban(&bban);
            Ok((bban, iban))
        }
        (None, Some(iban)) => {
            let bban = input::bban(bban_path, iban.bban_part())?;
            Ok((bban, iban))
        }
        (None, None) => Err(Refusal::format(
            bban_path,
            format!("{bban_path} (or {iban_path}) is required"),
        )),
    }
}

/// A product name for a cash account type, used when a request gives none.
pub(crate) fn default_product(cash_account_type: &str) -> &'static str {
    match cash_account_type {
        "CACC" => "Brukskonto",
        "SVGS" | "SACC" => "Sparekonto",
        "LOAN" => "Lån",
        "CARD" => "Kredittkort",
        _ => "Konto",
    }
}

/// Creates a mock account. 404 for an unknown customer, 409 for a BBAN that is taken.
pub fn create(store: &Store, request: &CreateAccount) -> Result<Account, Refusal> {
    let number = input::required_text("customerNumber", &request.customer_number, 20)?;
    let (bban, iban) = account_numbers("bban", &request.bban, "iban", &request.iban)?;
    let currency = match &request.currency {
        Some(c) => input::currency("currency", c)?,
        None => Currency::NOK,
    };
    let cash_account_type = match input::text("cashAccountType", &request.cash_account_type, 4)? {
        None => "CACC".to_owned(),
        Some(t) if input::CASH_ACCOUNT_TYPES.contains(&t.as_str()) => t,
        Some(t) => {
            return Err(Refusal::format(
                "cashAccountType",
                format!(
                    "cashAccountType '{t}' is not an ISO 20022 cash account type; use one of {}",
                    input::CASH_ACCOUNT_TYPES.join(", ")
                ),
            ))
        }
    };
    let product = input::text("product", &request.product, MAX_PRODUCT)?
        .unwrap_or_else(|| default_product(&cash_account_type).to_owned());
    let name = input::text("accountName", &request.account_name, MAX_NAME)?
        .unwrap_or_else(|| product.clone());
    let status = parse_status("status", &request.status)?;
    let credit_line = request
        .credit_line
        .as_ref()
        .map(|c| input::money("creditLine", c, currency))
        .transpose()?;
    let balances = input::balances(
        "balances",
        request.balances.as_deref().unwrap_or_default(),
        currency,
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
    Ok(account)
}

pub(crate) fn parse_status(path: &str, status: &Option<String>) -> Result<AccountStatus, Refusal> {
    match status.as_deref() {
        None => Ok(AccountStatus::Enabled),
        Some(s) => AccountStatus::parse(s).ok_or_else(|| {
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

/// The account with this `mockAccountId`; 404 RESOURCE_UNKNOWN at `path` otherwise.
pub fn by_id(store: &Store, path: &str, id: &str) -> Result<Account, Refusal> {
    store
        .table::<Account>()?
        .get(id)?
        .ok_or_else(|| Refusal::unknown(path, "account", id))
}

/// The account with this BBAN (11 digits, no separators), if any.
pub fn by_bban(store: &Store, bban: &str) -> Result<Option<Account>, Refusal> {
    Ok(store.table::<Account>()?.find(|a| a.bban == bban)?)
}

/// Every account of a customer, in BBAN order.
pub fn of_customer(store: &Store, customer_id: &str) -> Result<Vec<Account>, Refusal> {
    let mut accounts: Vec<Account> = store
        .table::<Account>()?
        .list()?
        .into_iter()
        .filter(|a| a.customer_id == customer_id)
        .collect();
    accounts.sort_by(|a, b| a.bban.cmp(&b.bban));
    Ok(accounts)
}

/// A mock account as the sandbox answers it: Berlin Group `accountDetails` plus the sandbox's ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    pub usage: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_line: Option<Money>,
    pub balances: Vec<Balance>,
}

pub(crate) fn usage(customer_type: CustomerType) -> &'static str {
    match customer_type {
        CustomerType::Private => "PRIV",
        CustomerType::Corporate => "ORGA",
    }
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

/// Creates an account and answers it as a view.
pub fn create_view(store: &Store, request: &CreateAccount) -> Result<AccountView, Refusal> {
    let account = create(store, request)?;
    view(store, account)
}

/// The view of one account by id (`GET /v1/sandbox/accounts/{mockAccountId}`).
pub fn get_view(store: &Store, id: &str) -> Result<AccountView, Refusal> {
    let account = by_id(store, "mockAccountId", id)?;
    view(store, account)
}

fn view(store: &Store, account: Account) -> Result<AccountView, Refusal> {
    let owner = customers::by_number(store, "customerNumber", &account.customer_number)?;
    Ok(AccountView::new(account, &owner))
}

#[cfg(test)]
#[allow(clippy::inconsistent_digit_grouping)] // BBAN stems read as bank.class.serial
pub(crate) mod tests {
    use super::*;
    use crate::refusal::Code;
    use crate::sandbox::customers::tests::{person, person_number};

    /// A valid BBAN made from a 10-digit stem.
    pub fn bban(stem: u64) -> String {
        (stem..)
            .find_map(|s| Bban::with_check_digit(&format!("{s:010}")))
            .unwrap()
            .as_str()
            .to_owned()
    }

    pub fn request(customer: &str, bban: &str) -> CreateAccount {
        CreateAccount {
            customer_number: Some(customer.into()),
            account_name: Some("Brukskonto".into()),
            bban: Some(bban.into()),
            balances: Some(vec![BalanceInput {
                balance_type: Some("interimAvailable".into()),
                balance_amount: Some(AmountInput {
                    amount: Some("-12.5".into()),
                    currency: Some("NOK".into()),
                }),
                ..Default::default()
            }]),
            ..Default::default()
        }
    }

    fn setup() -> (Store, String) {
        let store = Store::temporary().unwrap();
        let number = person_number();
        person(&store, &number, "Kari Nordmann");
        (store, number)
    }

    fn refused(store: &Store, request: &CreateAccount) -> (u16, Code, String) {
        let e = create(store, request).unwrap_err();
        (
            crate::api::error::status_of(e.code).as_u16(),
            e.code,
            e.path.unwrap_or_default(),
        )
    }

    #[test]
    fn an_account_gets_its_iban_defaults_and_stable_id() {
        let (store, number) = setup();
        let b = bban(1205_00_1000);
        let view = create_view(&store, &request(&number, &b)).unwrap();
        assert_eq!(view.id, derive_id("account", &b));
        assert_eq!(view.resource_id, view.id);
        assert_eq!(
            view.iban,
            Iban::from_norwegian_bban(&Bban::parse(&b).unwrap()).as_str()
        );
        assert_eq!(
            (view.currency, view.cash_account_type.as_str()),
            (Currency::NOK, "CACC")
        );
        assert_eq!(view.owner_name, "Kari Nordmann");
        assert_eq!(view.usage, "PRIV");
        let json = serde_json::to_value(&view.balances).unwrap();
        assert_eq!(json[0]["balanceAmount"]["amount"], "-12.50");
        assert_eq!(get_view(&store, &view.id).unwrap(), view);
    }

    #[test]
    fn a_matching_iban_is_accepted_and_a_lone_iban_gives_the_bban() {
        let (store, number) = setup();
        let b = bban(1205_00_2000);
        let iban = Iban::from_norwegian_bban(&Bban::parse(&b).unwrap())
            .as_str()
            .to_owned();
        let mut r = request(&number, &b);
        r.iban = Some(iban.clone());
        create(&store, &r).unwrap();
        let b2 = bban(1205_00_3000);
        let iban2 = Iban::from_norwegian_bban(&Bban::parse(&b2).unwrap())
            .as_str()
            .to_owned();
        let mut r = request(&number, "");
        r.bban = None;
        r.iban = Some(iban2);
        assert_eq!(create(&store, &r).unwrap().bban, b2);
    }

    #[test]
    fn bad_iban_check_digits_are_a_format_error_at_iban() {
        let (store, number) = setup();
        let b = bban(1205_00_1000);
        let mut iban = Iban::from_norwegian_bban(&Bban::parse(&b).unwrap())
            .as_str()
            .to_owned();
        let wrong = if &iban[2..4] == "10" { "11" } else { "10" };
        iban.replace_range(2..4, wrong);
        let mut r = request(&number, &b);
        r.iban = Some(iban);
        assert_eq!(refused(&store, &r), (400, Code::FormatError, "iban".into()));
    }

    #[test]
    fn an_iban_of_another_account_is_refused_at_iban() {
        let (store, number) = setup();
        let other = bban(1205_00_9000);
        let mut r = request(&number, &bban(1205_00_1000));
        r.iban = Some(
            Iban::from_norwegian_bban(&Bban::parse(&other).unwrap())
                .as_str()
                .to_owned(),
        );
        assert_eq!(refused(&store, &r), (400, Code::FormatError, "iban".into()));
    }

    #[test]
    fn a_bad_bban_check_digit_is_a_format_error_at_bban() {
        let (store, number) = setup();
        let mut b = bban(1205_00_1000);
        let last = b.pop().unwrap();
        b.push(if last == '9' {
            '0'
        } else {
            (last as u8 + 1) as char
        });
        assert_eq!(
            refused(&store, &request(&number, &b)),
            (400, Code::FormatError, "bban".into())
        );
    }

    #[test]
    fn a_missing_bban_and_iban_is_a_format_error_at_bban() {
        let (store, number) = setup();
        let mut r = request(&number, "");
        r.bban = None;
        assert_eq!(refused(&store, &r), (400, Code::FormatError, "bban".into()));
    }

    #[test]
    fn a_currency_off_the_list_is_a_format_error_at_currency() {
        let (store, number) = setup();
        let mut r = request(&number, &bban(1205_00_1000));
        r.currency = Some("XYZ".into());
        assert_eq!(
            refused(&store, &r),
            (400, Code::FormatError, "currency".into())
        );
    }

    #[test]
    fn a_balance_in_another_currency_is_refused_at_its_path() {
        let (store, number) = setup();
        let mut r = request(&number, &bban(1205_00_1000));
        r.balances.as_mut().unwrap()[0]
            .balance_amount
            .as_mut()
            .unwrap()
            .currency = Some("EUR".into());
        assert_eq!(
            refused(&store, &r),
            (
                400,
                Code::FormatError,
                "balances[0].balanceAmount.currency".into()
            )
        );
    }

    #[test]
    fn an_unknown_balance_type_is_refused_at_its_path() {
        let (store, number) = setup();
        let mut r = request(&number, &bban(1205_00_1000));
        r.balances.as_mut().unwrap()[0].balance_type = Some("available".into());
        assert_eq!(
            refused(&store, &r),
            (400, Code::FormatError, "balances[0].balanceType".into())
        );
    }

    #[test]
    fn too_many_fraction_digits_are_refused_at_the_amount() {
        let (store, number) = setup();
        let mut r = request(&number, &bban(1205_00_1000));
        r.balances.as_mut().unwrap()[0]
            .balance_amount
            .as_mut()
            .unwrap()
            .amount = Some("1.005".into());
        assert_eq!(
            refused(&store, &r),
            (
                400,
                Code::FormatError,
                "balances[0].balanceAmount.amount".into()
            )
        );
    }

    #[test]
    fn a_71_character_name_is_refused_and_70_accepted() {
        let (store, number) = setup();
        let mut r = request(&number, &bban(1205_00_1000));
        r.account_name = Some("x".repeat(71));
        assert_eq!(
            refused(&store, &r),
            (400, Code::FormatError, "accountName".into())
        );
        r.account_name = Some("x".repeat(70));
        assert!(create(&store, &r).is_ok());
    }

    #[test]
    fn an_unknown_customer_is_resource_unknown_at_customer_number() {
        let store = Store::temporary().unwrap();
        let r = request(&person_number(), &bban(1205_00_1000));
        assert_eq!(
            refused(&store, &r),
            (404, Code::ResourceUnknown, "customerNumber".into())
        );
    }

    #[test]
    fn a_duplicate_bban_is_a_conflict() {
        let (store, number) = setup();
        let b = bban(1205_00_1000);
        create(&store, &request(&number, &b)).unwrap();
        assert_eq!(
            refused(&store, &request(&number, &b)),
            (409, Code::Conflict, "bban".into())
        );
    }

    #[test]
    fn an_unknown_account_id_is_resource_unknown() {
        let store = Store::temporary().unwrap();
        let e = get_view(&store, "nope").unwrap_err();
        assert_eq!(
            (crate::api::error::status_of(e.code).as_u16(), e.code),
            (404, Code::ResourceUnknown)
        );
    }
}
