//! Sandbox customers: private persons (national identity number) and corporations (organisation number).
//!
//! One model, two sets of names. Requests and answers use the bank platform's names — `customerNumber`,
//! `customerName`, `customerType`, and `customerId` for the id — which its developer kit sends and reads;
//! the names this sandbox used first (`name`, `type`, `id`) are accepted in requests and repeated in
//! answers, so scripts written against either keep working.

use super::input::{self, required_text, Warnings};
use super::model::{Account, CardAccount, Customer, CustomerType};
use super::{derive_id, numbers, Warned};
use crate::domain::refusal::Refusal;
use crate::domain::NationalId;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// The longest customer name accepted, as for account names.
pub const MAX_NAME: usize = 70;

/// `POST /v1/sandbox/customers`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateCustomer {
    pub customer_number: Option<String>,
    /// `customerName` or `name`.
    #[serde(alias = "customerName")]
    pub name: Option<String>,
    /// `customerType` or `type`: `private` or `corporate` (upper case accepted). When absent it follows
    /// from the number: 11 digits private, 8 or 9 corporate.
    #[serde(rename = "type", alias = "customerType")]
    pub customer_type: Option<String>,
}

/// Creates a customer. 409 CONFLICT when the customer number is taken.
pub fn create(store: &Store, request: &CreateCustomer) -> Result<Customer, Refusal> {
    Ok(create_warned(store, request)?.value)
}

/// [`create`], with the warnings (an 8-digit organisation number).
pub fn create_warned(store: &Store, request: &CreateCustomer) -> Result<Warned<Customer>, Refusal> {
    let mut warnings = Warnings::new();
    let number = input::required_text("customerNumber", &request.customer_number, 20)?;
    let customer_type = match request
        .customer_type
        .as_deref()
        .map(str::to_ascii_lowercase)
    {
        Some(t) if t == "private" => CustomerType::Private,
        Some(t) if t == "corporate" => CustomerType::Corporate,
        Some(other) => {
            return Err(Refusal::format(
                "type",
                format!("type '{other}' is not a customer type; use private or corporate"),
            ))
        }
        None if matches!(number.replace(' ', "").len(), 8 | 9) => CustomerType::Corporate,
        None => CustomerType::Private,
    };
    let customer_number = parse_number(customer_type, &number, &mut warnings)?;
    let name = required_text("name", &request.name, MAX_NAME)?;
    let customer = Customer {
        id: derive_id("customer", &customer_number),
        customer_number,
        name,
        customer_type,
    };
    let _guard = store.locks().mock_data();
    insert(store, &customer)?;
    Ok(Warned {
        value: customer,
        warnings,
    })
}

/// Checks the number's form and check digits for the type; returns it without separators.
fn parse_number(
    customer_type: CustomerType,
    number: &str,
    warnings: &mut Warnings,
) -> Result<String, Refusal> {
    let path = "customerNumber";
    match customer_type {
        CustomerType::Private => NationalId::parse(number)
            .map(|id| id.as_str().to_owned())
            .map_err(|e| {
                Refusal::format(
                    path,
                    format!("{path}: a private customer is identified by an 11-digit national identity number (synthetic and D-numbers accepted): {e}"),
                )
            }),
        CustomerType::Corporate => numbers::corporate_number(path, number, warnings),
    }
}

/// Stores a new customer (the caller holds the write lock).
pub(crate) fn insert(store: &Store, customer: &Customer) -> Result<(), Refusal> {
    if !store.table::<Customer>()?.insert_new(customer)? {
        return Err(Refusal::conflict(
            "customerNumber",
            format!(
                "a customer with customerNumber {} already exists",
                customer.customer_number
            ),
        ));
    }
    Ok(())
}

/// The customer with this customer number; 404 RESOURCE_UNKNOWN at `path` otherwise.
pub fn by_number(store: &Store, path: &str, number: &str) -> Result<Customer, Refusal> {
    let key: String = number.chars().filter(|c| *c != ' ').collect();
    store
        .table::<Customer>()?
        .get(&key)?
        .ok_or_else(|| Refusal::unknown(path, "customer", number))
}

/// The customer with this id, if any.
pub fn by_id(store: &Store, id: &str) -> Result<Option<Customer>, Refusal> {
    Ok(store.table::<Customer>()?.find(|c| c.id == id)?)
}

/// A customer as the sandbox answers it (see the module documentation for the two sets of names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerAnswer {
    pub customer_id: String,
    pub customer_number: String,
    pub customer_type: CustomerType,
    pub customer_name: String,
    /// `customerId` under the sandbox's first name for it.
    pub id: String,
    /// `customerName` under the sandbox's first name for it.
    pub name: String,
    /// `customerType` under the sandbox's first name for it.
    #[serde(rename = "type")]
    pub type_: CustomerType,
}

impl From<Customer> for CustomerAnswer {
    fn from(c: Customer) -> Self {
        CustomerAnswer {
            customer_id: c.id.clone(),
            customer_number: c.customer_number,
            customer_type: c.customer_type,
            customer_name: c.name.clone(),
            id: c.id,
            name: c.name,
            type_: c.customer_type,
        }
    }
}

/// A customer as `GET /v1/sandbox/customers` shows it: the answer plus the ids of the accounts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerView {
    #[serde(flatten)]
    pub customer: CustomerAnswer,
    pub accounts: Vec<AccountSummary>,
    pub card_accounts: Vec<CardAccountSummary>,
}

/// Enough of an account to name it in later requests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountSummary {
    pub id: String,
    pub bban: String,
    pub iban: String,
    pub currency: String,
    pub name: String,
    pub cash_account_type: String,
}

/// Enough of a card account to name it in later requests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardAccountSummary {
    pub id: String,
    pub masked_pan: String,
    pub currency: String,
    pub name: String,
}

/// Every customer, in customer-number order, with the ids of their accounts and card accounts.
pub fn list(store: &Store) -> Result<Vec<CustomerView>, Refusal> {
    let accounts = store.table::<Account>()?.list_shared()?;
    let cards = store.table::<CardAccount>()?.list_shared()?;
    let customers = store.table::<Customer>()?.list_shared()?;
    Ok(customers
        .iter()
        .cloned()
        .map(|c| {
            let mut own_accounts: Vec<&Account> =
                accounts.iter().filter(|a| a.customer_id == c.id).collect();
            own_accounts.sort_by(|a, b| a.bban.cmp(&b.bban));
            let mut own_cards: Vec<&CardAccount> =
                cards.iter().filter(|a| a.customer_id == c.id).collect();
            own_cards.sort_by(|a, b| a.masked_pan.cmp(&b.masked_pan));
            CustomerView {
                accounts: own_accounts
                    .into_iter()
                    .map(|a| AccountSummary {
                        id: a.id.clone(),
                        bban: a.bban.clone(),
                        iban: a.iban.clone(),
                        currency: a.currency.code().to_owned(),
                        name: a.name.clone(),
                        cash_account_type: a.cash_account_type.clone(),
                    })
                    .collect(),
                card_accounts: own_cards
                    .into_iter()
                    .map(|a| CardAccountSummary {
                        id: a.id.clone(),
                        masked_pan: a.masked_pan.clone(),
                        currency: a.currency.code().to_owned(),
                        name: a.name.clone(),
                    })
                    .collect(),
                customer: CustomerAnswer::from(c),
            }
        })
        .collect())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::refusal::Code;

    /// A synthetic national identity number valid for tests: Kari Nordmann's from the seed.
    pub fn person_number() -> String {
        super::super::seed::private_customers()[0].0.clone()
    }

    pub fn person(store: &Store, number: &str, name: &str) -> Customer {
        create(
            store,
            &CreateCustomer {
                customer_number: Some(number.into()),
                name: Some(name.into()),
                customer_type: Some("private".into()),
            },
        )
        .unwrap()
    }

    pub fn corporation(store: &Store, number: &str, name: &str) -> Customer {
        create(
            store,
            &CreateCustomer {
                customer_number: Some(number.into()),
                name: Some(name.into()),
                customer_type: Some("corporate".into()),
            },
        )
        .unwrap()
    }

    fn request(number: &str, kind: Option<&str>) -> CreateCustomer {
        CreateCustomer {
            customer_number: Some(number.into()),
            name: Some("Test Testesen".into()),
            customer_type: kind.map(str::to_owned),
        }
    }

    #[test]
    fn a_private_customer_is_created_with_a_stable_id() {
        let store = Store::temporary().unwrap();
        let number = person_number();
        let c = create(&store, &request(&number, Some("private"))).unwrap();
        assert_eq!(c.customer_type, CustomerType::Private);
        assert_eq!(c.id, derive_id("customer", &number));
        assert_eq!(by_number(&store, "x", &number).unwrap(), c);
    }

    #[test]
    fn the_type_follows_from_the_number_when_absent() {
        let store = Store::temporary().unwrap();
        let c = create(&store, &request("974760673", None)).unwrap();
        assert_eq!(c.customer_type, CustomerType::Corporate);
        let p = create(&store, &request(&person_number(), None)).unwrap();
        assert_eq!(p.customer_type, CustomerType::Private);
    }

    #[test]
    fn a_bad_national_id_check_digit_is_a_format_error_at_customer_number() {
        let store = Store::temporary().unwrap();
        let mut number = person_number();
        let last = number.pop().unwrap();
        number.push(if last == '9' {
            '0'
        } else {
            (last as u8 + 1) as char
        });
        let e = create(&store, &request(&number, Some("private"))).unwrap_err();
        assert_eq!((e.status(), e.code), (400, Code::FormatError));
        assert_eq!(e.path.as_deref(), Some("customerNumber"));
    }

    #[test]
    fn a_bad_organisation_number_is_a_format_error() {
        let store = Store::temporary().unwrap();
        let e = create(&store, &request("974760674", Some("corporate"))).unwrap_err();
        assert_eq!(
            (e.code, e.path.as_deref()),
            (Code::FormatError, Some("customerNumber"))
        );
        // A person's number given as corporate is refused too.
        let e = create(&store, &request(&person_number(), Some("corporate"))).unwrap_err();
        assert_eq!(e.code, Code::FormatError);
    }

    #[test]
    fn an_unknown_type_is_a_format_error_at_type() {
        let store = Store::temporary().unwrap();
        let e = create(&store, &request("974760673", Some("company"))).unwrap_err();
        assert_eq!(
            (e.code, e.path.as_deref()),
            (Code::FormatError, Some("type"))
        );
    }

    #[test]
    fn a_missing_name_is_a_format_error_at_name() {
        let store = Store::temporary().unwrap();
        let mut r = request("974760673", None);
        r.name = Some("  ".into());
        let e = create(&store, &r).unwrap_err();
        assert_eq!(e.path.as_deref(), Some("name"));
    }

    #[test]
    fn a_duplicate_customer_number_is_a_conflict() {
        let store = Store::temporary().unwrap();
        create(&store, &request("974760673", None)).unwrap();
        let e = create(&store, &request("974 760 673", None)).unwrap_err();
        assert_eq!((e.status(), e.code), (409, Code::Conflict));
        assert_eq!(e.path.as_deref(), Some("customerNumber"));
    }

    #[test]
    fn an_unknown_customer_number_is_resource_unknown() {
        let store = Store::temporary().unwrap();
        let e = by_number(&store, "customerNumber", "974760673").unwrap_err();
        assert_eq!((e.status(), e.code), (404, Code::ResourceUnknown));
        assert_eq!(e.path.as_deref(), Some("customerNumber"));
    }
}
