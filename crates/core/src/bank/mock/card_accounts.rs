//! Mock card accounts: `POST /v1/sandbox/card-accounts` and the lookups other areas use.

use super::accounts::{parse_status, MAX_NAME, MAX_PRODUCT};
use super::holdings::{self, usage, usage_schema, Holding};
use super::input::{self, AmountInput, BalanceInput, Warnings};
use super::model::{AccountStatus, Balance, CardAccount, Customer, Money};
use super::{accounts, customers, derive_id, numbers, Warned};
use crate::domain::refusal::Refusal;
use crate::domain::Currency;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// Berlin Group 1.3 `maskedPan`: at most 35 characters.
pub const MAX_MASKED_PAN: usize = 35;

/// `POST /v1/sandbox/card-accounts`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateCardAccount {
    pub customer_number: Option<String>,
    /// e.g. `5555 55** **** 1234`: digits with the middle masked by `*` (or `x`).
    pub masked_pan: Option<String>,
    /// Default NOK.
    pub currency: Option<String>,
    pub credit_limit: Option<AmountInput>,
    pub balances: Option<Vec<BalanceInput>>,
    /// `accountName` is accepted as well.
    #[serde(alias = "accountName")]
    pub name: Option<String>,
    pub product: Option<String>,
    pub status: Option<String>,
    /// The BBAN of one of the customer's accounts the card settles against.
    pub related_account: Option<String>,
}

/// Checks a masked PAN; returns it with spaces removed and `x` written `*`, the form ids derive from.
fn normalise_masked_pan(path: &str, pan: &str) -> Result<String, Refusal> {
    let compact: String = pan.chars().filter(|c| *c != ' ').collect();
    let problem = if pan.chars().count() > MAX_MASKED_PAN {
        Some(format!("it has more than {MAX_MASKED_PAN} characters"))
    } else if let Some(bad) = compact
        .chars()
        .find(|c| !c.is_ascii_digit() && !matches!(c, '*' | 'x' | 'X'))
    {
        Some(format!(
            "it contains '{bad}'; use digits, spaces and '*' for the masked part"
        ))
    } else if !(12..=19).contains(&compact.len()) {
        Some(format!(
            "it has {} digits and mask characters, a card number has 12 to 19",
            compact.len()
        ))
    } else if compact.chars().all(|c| c.is_ascii_digit()) {
        Some("no digit is masked; a masked PAN hides the middle digits with '*'".to_owned())
    } else if !compact[compact.len() - 4..]
        .chars()
        .all(|c| c.is_ascii_digit())
    {
        Some("the last four digits must be shown".to_owned())
    } else {
        None
    };
    match problem {
        Some(problem) => Err(Refusal::format(
            path,
            format!("{path} '{pan}' is not a masked card number: {problem}"),
        )),
        None => Ok(compact.to_ascii_lowercase().replace('x', "*")),
    }
}

/// Creates a mock card account. 404 for an unknown customer or related account. A masked PAN shows only
/// a few digits, so several card accounts may share one (the platform's developer kit gives all six of
/// its cards `1234xxxxxxxx4321`): each gets its own id.
pub fn create(store: &Store, request: &CreateCardAccount) -> Result<CardAccount, Refusal> {
    Ok(create_warned(store, request)?.value)
}

/// [`create`], with the warnings about what was accepted.
pub fn create_warned(
    store: &Store,
    request: &CreateCardAccount,
) -> Result<Warned<CardAccount>, Refusal> {
    let mut warnings = Warnings::new();
    let number = input::required_text("customerNumber", &request.customer_number, 20)?;
    let masked_pan = input::required_text("maskedPan", &request.masked_pan, MAX_MASKED_PAN)?;
    let compact_pan = normalise_masked_pan("maskedPan", &masked_pan)?;
    let currency = match &request.currency {
        Some(c) => input::currency("currency", c)?,
        None => Currency::NOK,
    };
    let product = input::text("product", &request.product, MAX_PRODUCT)?
        .unwrap_or_else(|| "Kredittkort".to_owned());
    let name = input::text("name", &request.name, MAX_NAME)?.unwrap_or_else(|| product.clone());
    let status = parse_status("status", &request.status)?;
    let credit_limit = request
        .credit_limit
        .as_ref()
        .map(|c| input::money("creditLimit", c, currency))
        .transpose()?;
    let balances = input::balances(
        "balances",
        request.balances.as_deref().unwrap_or_default(),
        currency,
        &mut warnings,
    )?;
    let related = request
        .related_account
        .as_deref()
        .filter(|r| !r.trim().is_empty())
        .map(|r| numbers::bban("relatedAccount", r, &mut warnings))
        .transpose()?;
    let customer = customers::by_number(store, "customerNumber", &number)?;
    let related_account = match related {
        None => None,
        Some(bban) => match accounts::by_bban(store, bban.as_str())? {
            Some(a) if a.customer_id == customer.id => Some(a.bban),
            _ => {
                return Err(Refusal::unknown(
                    "relatedAccount",
                    &format!("account of customer {}", customer.customer_number),
                    bban.as_str(),
                ))
            }
        },
    };
    let mut card = CardAccount {
        id: String::new(),
        customer_id: customer.id,
        customer_number: customer.customer_number,
        masked_pan,
        currency,
        name,
        product,
        status,
        credit_limit,
        related_account,
        balances,
    };
    let _guard = store.locks().mock_data();
    card.id = free_id(store, &compact_pan)?;
    insert(store, &card)?;
    Ok(Warned {
        value: card,
        warnings,
    })
}

/// The id of the next card account with this (compact) masked PAN: derived from the PAN alone for the
/// first, so ids stay what they were when PANs were unique, then from the PAN and the first free number
/// (`…/2`, `…/3`). A script replayed on a fresh sandbox gets the same ids. The caller holds the write lock.
pub(crate) fn free_id(store: &Store, compact_pan: &str) -> Result<String, Refusal> {
    let table = store.table::<CardAccount>()?;
    let candidate = |n: usize| match n {
        1 => derive_id("card-account", compact_pan),
        n => derive_id("card-account", &format!("{compact_pan}/{n}")),
    };
    for n in 1.. {
        let id = candidate(n);
        if table.get(&id)?.is_none() {
            return Ok(id);
        }
    }
    unreachable!("some number is free")
}

/// Stores a new card account (the caller holds the write lock and chose a free id).
pub(crate) fn insert(store: &Store, card: &CardAccount) -> Result<(), Refusal> {
    let table = store.table::<CardAccount>()?;
    if !table.insert_new(card)? {
        return Err(Refusal::internal(format!(
            "card account id {} was taken between choosing and storing it",
            card.id
        )));
    }
    Ok(())
}

/// A card account as the sandbox answers it: Berlin Group `cardAccountDetails` plus the sandbox's ids.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardAccountView {
    /// The `mockCardAccountId`.
    pub id: String,
    pub resource_id: String,
    pub customer_number: String,
    pub owner_name: String,
    pub masked_pan: String,
    pub currency: Currency,
    pub name: String,
    pub product: String,
    pub status: AccountStatus,
    #[schema(schema_with = usage_schema)]
    pub usage: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credit_limit: Option<Money>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub related_account: Option<String>,
    pub balances: Vec<Balance>,
}

impl CardAccountView {
    pub fn new(card: CardAccount, owner: &Customer) -> CardAccountView {
        CardAccountView {
            resource_id: card.id.clone(),
            id: card.id,
            customer_number: card.customer_number,
            owner_name: owner.name.clone(),
            masked_pan: card.masked_pan,
            currency: card.currency,
            name: card.name,
            product: card.product,
            status: card.status,
            usage: usage(owner.customer_type),
            credit_limit: card.credit_limit,
            related_account: card.related_account,
            balances: card.balances,
        }
    }
}

impl Holding for CardAccount {
    const KIND: &'static str = "card account";
    type View = CardAccountView;
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
        &self.masked_pan
    }
    fn balances(&self) -> &[Balance] {
        &self.balances
    }
    fn into_view(self, holder: &Customer) -> CardAccountView {
        CardAccountView::new(self, holder)
    }
}

/// Creates a card account and answers it as a view, with the warnings.
pub fn create_view(
    store: &Store,
    request: &CreateCardAccount,
) -> Result<Warned<CardAccountView>, Refusal> {
    create_warned(store, request)?.try_map(|card| holdings::view(store, card))
}

#[cfg(test)]
#[allow(clippy::inconsistent_digit_grouping)] // BBAN stems read as bank.class.serial
pub(crate) mod tests {
    use super::*;
    use crate::bank::mock::accounts::tests::{bban, request as account_request};
    use crate::bank::mock::customers::tests::{person, person_number};
    use crate::domain::refusal::Code;

    pub fn request(customer: &str, pan: &str) -> CreateCardAccount {
        CreateCardAccount {
            customer_number: Some(customer.into()),
            masked_pan: Some(pan.into()),
            credit_limit: Some(AmountInput {
                amount: Some("50000".into()),
                currency: Some("NOK".into()),
            }),
            balances: Some(vec![BalanceInput {
                balance_type: Some("interimBooked".into()),
                balance_amount: Some(AmountInput {
                    amount: Some("-1234.50".into()),
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

    fn refused(store: &Store, r: &CreateCardAccount) -> (u16, Code, String) {
        let e = create(store, r).unwrap_err();
        (e.status(), e.code, e.path.unwrap_or_default())
    }

    #[test]
    fn a_card_account_is_created_with_its_related_account() {
        let (store, number) = setup();
        let b = bban(1205_00_1000);
        crate::bank::mock::accounts::create(&store, &account_request(&number, &b)).unwrap();
        let mut r = request(&number, "5555 55** **** 1234");
        r.related_account = Some(b.clone());
        let view = create_view(&store, &r).unwrap().value;
        assert_eq!(view.related_account.as_deref(), Some(b.as_str()));
        assert_eq!(view.id, derive_id("card-account", "555555******1234"));
        assert_eq!(
            serde_json::to_value(&view.credit_limit).unwrap()["amount"],
            "50000.00"
        );
        assert_eq!(
            holdings::get_view::<CardAccount>(&store, "mockCardAccountId", &view.id).unwrap(),
            view
        );
    }

    #[test]
    fn malformed_masked_pans_are_format_errors_at_masked_pan() {
        let (store, number) = setup();
        for pan in [
            "5555555555551234",
            "5555 55** **** 12**",
            "5555-55**-****-1234",
            "55**1234",
        ] {
            assert_eq!(
                refused(&store, &request(&number, pan)),
                (400, Code::FormatError, "maskedPan".into()),
                "{pan}"
            );
        }
    }

    #[test]
    fn the_same_masked_pan_on_several_card_accounts_gives_each_its_own_id() {
        let (store, number) = setup();
        let other = "01078900497";
        person(&store, other, "Test Testperson 1");
        let first = create(&store, &request(&number, "5555 55** **** 1234")).unwrap();
        let second = create(&store, &request(other, "555555******1234")).unwrap();
        let third = create(&store, &request(other, "555555xxxxxx1234")).unwrap();
        assert_eq!(first.id, derive_id("card-account", "555555******1234"));
        assert_eq!(second.id, derive_id("card-account", "555555******1234/2"));
        assert_eq!(third.id, derive_id("card-account", "555555******1234/3"));
        assert_eq!(
            holdings::of_customer::<CardAccount>(&store, &second.customer_id)
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn the_platform_kits_card_account_shape_is_accepted_with_one_warning() {
        let (store, number) = setup();
        let r: CreateCardAccount = serde_json::from_str(&format!(
            r#"{{"customerNumber":"{number}","maskedPan":"1234xxxxxxxx4321","currency":"NOK",
                "creditLimit":{{"currency":"NOK","amount":1000}},
                "balances":[{{"balanceAmount":{{"currency":"NOK","amount":0}},"balanceType":"EXPECTED",
                  "referenceDate":"2020-01-01","lastChangeDateTime":"2019-10-14T13:55:45.494Z","lastCommittedTransaction":"test"}},
                  {{"balanceAmount":{{"currency":"NOK","amount":0}},"balanceType":"EXPECTED","referenceDate":"2020-01-01"}}],
                "cardId":"1","cardIdVNo":"2","accountNumber":"123412341234","expiry":"2020-01-01","name":"Test",
                "product":"Basic Credit","status":"ENABLED"}}"#
        ))
        .unwrap();
        let created = create_warned(&store, &r).unwrap();
        assert_eq!(created.warnings.len(), 1, "{:?}", created.warnings);
        assert_eq!(created.value.status, AccountStatus::Enabled);
        assert_eq!(created.value.balances.len(), 1);
        assert_eq!(
            created.value.credit_limit.unwrap().amount.to_string(),
            "1000.00"
        );
    }

    #[test]
    fn a_related_account_of_someone_else_is_resource_unknown() {
        let (store, number) = setup();
        let mut r = request(&number, "5555 55** **** 1234");
        r.related_account = Some(bban(1205_00_1000));
        assert_eq!(
            refused(&store, &r),
            (404, Code::ResourceUnknown, "relatedAccount".into())
        );
    }

    #[test]
    fn a_credit_limit_in_another_currency_is_refused() {
        let (store, number) = setup();
        let mut r = request(&number, "5555 55** **** 1234");
        r.credit_limit.as_mut().unwrap().currency = Some("SEK".into());
        assert_eq!(
            refused(&store, &r),
            (400, Code::FormatError, "creditLimit.currency".into())
        );
    }

    #[test]
    fn an_unknown_customer_is_resource_unknown() {
        let store = Store::temporary().unwrap();
        assert_eq!(
            refused(&store, &request(&person_number(), "5555 55** **** 1234")),
            (404, Code::ResourceUnknown, "customerNumber".into())
        );
    }
}
