//! Corporate agreements: which persons act for a corporation, on which of its accounts, with which roles.
//!
//! `POST /v1/sandbox/agreements` `{owner, name, engagements: [{customer, account: {iban | bban}, roles}]}`:
//! `owner` is a corporate customer's organisation number, each `customer` a private customer's national
//! identity number, each account one of the owner's, roles from VIEW, REGISTER and APPROVE. The agreement's
//! id is what a PSU in corporate context later sends as PSU-Corporate-ID.

use super::accounts;
use super::input::{self, at, Warnings};
use super::model::{Agreement, Customer, CustomerType, Engagement, Role};
use super::numbers::{account_numbers, corporate_number};
use super::transactions::AccountRefInput;
use super::{customers, derive_id, Warned};
use crate::domain::refusal::Refusal;
use crate::domain::NationalId;
use crate::store::Store;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

const MAX_NAME: usize = 70;

/// `POST /v1/sandbox/agreements`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct CreateAgreement {
    pub owner: Option<String>,
    pub name: Option<String>,
    pub engagements: Option<Vec<EngagementInput>>,
}

/// One person's engagement in a request.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct EngagementInput {
    /// The person's national identity number.
    pub customer: Option<String>,
    pub account: Option<AccountRefInput>,
    pub roles: Option<Vec<String>>,
}

fn parse_engagement(
    store: &Store,
    prefix: &str,
    input: &EngagementInput,
    owner: &Customer,
    warnings: &mut Warnings,
) -> Result<Engagement, Refusal> {
    let customer_path = at(prefix, "customer");
    let number = input::required_text(&customer_path, &input.customer, 20)?;
    let id = NationalId::parse(&number).map_err(|e| {
        Refusal::format(
            &customer_path,
            format!("{customer_path} must be a private customer's national identity number: {e}"),
        )
    })?;
    let account_path = at(prefix, "account");
    let account_input = input::required(&account_path, &input.account)?;
    let (bban_path, iban_path) = (at(&account_path, "bban"), at(&account_path, "iban"));
    let (bban, iban) = account_numbers(
        &bban_path,
        &account_input.bban,
        &iban_path,
        &account_input.iban,
        warnings,
    )?;
    let roles_path = at(prefix, "roles");
    let role_texts = input::required(&roles_path, &input.roles)?;
    if role_texts.is_empty() {
        return Err(Refusal::format(
            &roles_path,
            format!("{roles_path} needs at least one role (VIEW, REGISTER, APPROVE)"),
        ));
    }
    let mut roles = role_texts
        .iter()
        .enumerate()
        .map(|(j, r)| {
            Role::parse(r).ok_or_else(|| {
                let path = format!("{roles_path}[{j}]");
                Refusal::format(
                    &path,
                    format!("{path} '{r}' is not a role; use VIEW, REGISTER or APPROVE"),
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    roles.sort();
    roles.dedup();
    let person = customers::by_number(store, &customer_path, id.as_str())?;
    if person.customer_type != CustomerType::Private {
        return Err(Refusal::unknown(
            &customer_path,
            "private customer",
            id.as_str(),
        ));
    }
    let named_path = if account_input.iban.is_some() {
        iban_path
    } else {
        bban_path
    };
    let account = accounts::by_bban(store, bban.as_str())?
        .filter(|a| a.customer_id == owner.id)
        .ok_or_else(|| {
            Refusal::unknown(
                &named_path,
                &format!("account of {}", owner.customer_number),
                iban.as_str(),
            )
        })?;
    Ok(Engagement {
        customer_id: person.id,
        customer_number: person.customer_number,
        account_id: account.id,
        iban: account.iban,
        bban: account.bban,
        roles,
    })
}

/// Creates an agreement. 404 for an unknown owner, person or account; 409 for a name the owner used.
pub fn create(store: &Store, request: &CreateAgreement) -> Result<AgreementView, Refusal> {
    Ok(create_warned(store, request)?.value)
}

/// [`create`], with the warnings (an 8-digit owner, an account number with a wrong check digit).
pub fn create_warned(
    store: &Store,
    request: &CreateAgreement,
) -> Result<Warned<AgreementView>, Refusal> {
    let mut warnings = Warnings::new();
    let owner_text = input::required_text("owner", &request.owner, 20)?;
    let owner_number = corporate_number("owner", &owner_text, &mut warnings)?;
    let name = input::required_text("name", &request.name, MAX_NAME)?;
    let inputs = input::required("engagements", &request.engagements)?;
    if inputs.is_empty() {
        return Err(Refusal::format(
            "engagements",
            "engagements needs at least one engagement",
        ));
    }
    let owner = customers::by_number(store, "owner", &owner_number)?;
    if owner.customer_type != CustomerType::Corporate {
        return Err(Refusal::unknown(
            "owner",
            "corporate customer",
            &owner_number,
        ));
    }
    let mut pairs = HashSet::new();
    let mut engagements = Vec::with_capacity(inputs.len());
    for (i, e) in inputs.iter().enumerate() {
        let prefix = format!("engagements[{i}]");
        let engagement = parse_engagement(store, &prefix, e, &owner, &mut warnings)?;
        if !pairs.insert((
            engagement.customer_id.clone(),
            engagement.account_id.clone(),
        )) {
            return Err(Refusal::format(
                &prefix,
                format!("{prefix} repeats the person and account of an earlier engagement; list all roles in one"),
            ));
        }
        engagements.push(engagement);
    }
    let agreement = Agreement {
        id: derive_id("agreement", &format!("{}/{name}", owner.customer_number)),
        owner_customer_id: owner.id.clone(),
        owner: owner.customer_number.clone(),
        name,
        engagements,
    };
    let _guard = store.locks().mock_data();
    insert(store, &agreement)?;
    Ok(Warned {
        value: view(store, agreement)?,
        warnings,
    })
}

/// Stores a new agreement (the caller holds the write lock). 409 when the owner has one of that name.
pub(crate) fn insert(store: &Store, agreement: &Agreement) -> Result<(), Refusal> {
    let table = store.table::<Agreement>()?;
    let clash = table.find(|a| a.owner == agreement.owner && a.name == agreement.name)?;
    if clash.is_some() || !table.insert_new(agreement)? {
        return Err(Refusal::conflict(
            "name",
            format!(
                "{} already has an agreement named '{}'",
                agreement.owner, agreement.name
            ),
        ));
    }
    Ok(())
}

/// The agreements in which a person (by customer id) has an engagement.
pub fn of_person(store: &Store, customer_id: &str) -> Result<Vec<Agreement>, Refusal> {
    Ok(store
        .table::<Agreement>()?
        .list()?
        .into_iter()
        .filter(|a| a.engagements.iter().any(|e| e.customer_id == customer_id))
        .collect())
}

/// The agreement with this id, if any.
pub fn by_id(store: &Store, id: &str) -> Result<Option<Agreement>, Refusal> {
    Ok(store.table::<Agreement>()?.get(id)?)
}

/// An engagement as the sandbox answers it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EngagementView {
    pub customer: String,
    pub customer_name: String,
    pub account: AccountRefView,
    pub roles: Vec<Role>,
}

/// `{id, iban, bban}` of an engaged account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AccountRefView {
    pub id: String,
    pub iban: String,
    pub bban: String,
}

/// An agreement as `POST` and `GET /v1/sandbox/agreements` answer it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AgreementView {
    pub id: String,
    pub owner: String,
    pub owner_name: String,
    pub name: String,
    pub engagements: Vec<EngagementView>,
}

fn view(store: &Store, agreement: Agreement) -> Result<AgreementView, Refusal> {
    let name_of = |number: &str| -> Result<String, Refusal> {
        Ok(customers::by_number(store, "customer", number)?.name)
    };
    Ok(AgreementView {
        owner_name: name_of(&agreement.owner)?,
        engagements: agreement
            .engagements
            .into_iter()
            .map(|e| {
                Ok(EngagementView {
                    customer_name: name_of(&e.customer_number)?,
                    customer: e.customer_number,
                    account: AccountRefView {
                        id: e.account_id,
                        iban: e.iban,
                        bban: e.bban,
                    },
                    roles: e.roles,
                })
            })
            .collect::<Result<_, Refusal>>()?,
        id: agreement.id,
        owner: agreement.owner,
        name: agreement.name,
    })
}

/// `GET /v1/sandbox/agreements`: every agreement, ordered by owner and name.
pub fn list(store: &Store) -> Result<Vec<AgreementView>, Refusal> {
    let mut all = store.table::<Agreement>()?.list()?;
    all.sort_by(|a, b| (&a.owner, &a.name).cmp(&(&b.owner, &b.name)));
    all.into_iter().map(|a| view(store, a)).collect()
}

#[cfg(test)]
#[allow(clippy::inconsistent_digit_grouping)] // BBAN stems read as bank.class.serial
mod tests {
    use super::*;
    use crate::bank::mock::accounts::tests::{bban, request as account_request};
    use crate::bank::mock::customers::tests::{corporation, person, person_number};
    use crate::domain::refusal::Code;
    use serde_json::json;

    const ORG: &str = "974760673";

    fn setup() -> (Store, String, String) {
        let store = Store::temporary().unwrap();
        let number = person_number();
        person(&store, &number, "Kari Nordmann");
        corporation(&store, ORG, "Fjordkraft Testbedrift AS");
        let corporate_bban = bban(1205_20_1000);
        accounts::create(&store, &account_request(ORG, &corporate_bban)).unwrap();
        (store, number, corporate_bban)
    }

    fn request(owner: &str, person: &str, bban: &str) -> CreateAgreement {
        serde_json::from_value(json!({
            "owner": owner, "name": "Hovedavtale",
            "engagements": [{"customer": person, "account": {"bban": bban}, "roles": ["VIEW", "REGISTER", "VIEW"]}]
        }))
        .unwrap()
    }

    fn refused(store: &Store, r: &CreateAgreement) -> (u16, Code, String) {
        let e = create(store, r).unwrap_err();
        (e.status(), e.code, e.path.unwrap_or_default())
    }

    #[test]
    fn an_agreement_links_a_person_to_a_corporate_account() {
        let (store, person, b) = setup();
        let a = create(&store, &request(ORG, &person, &b)).unwrap();
        assert_eq!(a.id, derive_id("agreement", &format!("{ORG}/Hovedavtale")));
        assert_eq!(a.owner_name, "Fjordkraft Testbedrift AS");
        assert_eq!(a.engagements[0].roles, [Role::View, Role::Register]);
        assert_eq!(a.engagements[0].customer_name, "Kari Nordmann");
        assert_eq!(list(&store).unwrap(), std::slice::from_ref(&a));
        let person_id = customers::by_number(&store, "x", &person).unwrap().id;
        assert_eq!(of_person(&store, &person_id).unwrap()[0].id, a.id);
    }

    #[test]
    fn the_same_name_for_the_same_owner_is_a_conflict() {
        let (store, person, b) = setup();
        create(&store, &request(ORG, &person, &b)).unwrap();
        assert_eq!(
            refused(&store, &request(ORG, &person, &b)),
            (409, Code::Conflict, "name".into())
        );
    }

    #[test]
    fn an_unknown_owner_is_resource_unknown_and_a_bad_one_a_format_error() {
        let (store, person, b) = setup();
        assert_eq!(refused(&store, &request("923609016", &person, &b)).0, 404);
        assert_eq!(
            refused(&store, &request("923609016", &person, &b)),
            (404, Code::ResourceUnknown, "owner".into())
        );
        assert_eq!(
            refused(&store, &request(&person, &person, &b)),
            (400, Code::FormatError, "owner".into())
        );
    }

    #[test]
    fn an_unknown_person_is_resource_unknown_at_its_path() {
        let (store, _, b) = setup();
        let other = crate::bank::mock::seed::private_customers()[1].0.clone();
        assert_eq!(
            refused(&store, &request(ORG, &other, &b)),
            (404, Code::ResourceUnknown, "engagements[0].customer".into())
        );
    }

    #[test]
    fn an_account_not_of_the_owner_is_resource_unknown() {
        let (store, person, _) = setup();
        let private_bban = bban(1205_00_1000);
        accounts::create(&store, &account_request(&person, &private_bban)).unwrap();
        assert_eq!(
            refused(&store, &request(ORG, &person, &private_bban)),
            (
                404,
                Code::ResourceUnknown,
                "engagements[0].account.bban".into()
            )
        );
    }

    #[test]
    fn an_unknown_role_is_a_format_error_at_its_index() {
        let (store, person, b) = setup();
        let mut r = request(ORG, &person, &b);
        r.engagements.as_mut().unwrap()[0].roles = Some(vec!["VIEW".into(), "ADMIN".into()]);
        assert_eq!(
            refused(&store, &r),
            (400, Code::FormatError, "engagements[0].roles[1]".into())
        );
    }
}
