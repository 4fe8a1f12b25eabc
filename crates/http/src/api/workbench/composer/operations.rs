//! The composer's forms (`GET /workbench/api/operations`), built from the service's own OpenAPI document:
//! each form's method, path, path and query parameters and the headers its operation requires come from
//! the document, so a form cannot drift from what the service routes; what the document cannot say (a body
//! to start from, the persona placeholders, grouping, the role) is the small table in `forms`.

use super::forms::{usual_value, Form, FORMS};
use serde::Serialize;
use serde_json::Value;
use std::sync::OnceLock;

/// Which earlier resource fills a path parameter (the last one the composer saw of that kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum Follows {
    Payment,
    Consent,
    Basket,
    Authorisation,
    Account,
    CardAccount,
    Transaction,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PathParam {
    /// As the path writes it between braces.
    pub name: String,
    pub description: &'static str,
    /// The field of the earlier answer this usually comes from (e.g. `paymentId`).
    #[schema(required = true)]
    pub source: Option<&'static str>,
    /// The kind of earlier resource that fills it.
    #[schema(required = true)]
    pub follows: Option<Follows>,
    /// The values the document allows, when it enumerates them.
    #[schema(required = true)]
    pub values: Option<Vec<String>>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueryParam {
    pub name: String,
    /// The value the form starts with (empty: not sent until filled).
    pub value: &'static str,
    pub required: bool,
    /// The values the document allows, when it enumerates them.
    #[schema(required = true)]
    pub values: Option<Vec<String>>,
}

/// Something to know about one header of a form.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct HeaderHint {
    pub header: &'static str,
    pub text: &'static str,
}

/// The group a form is listed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub enum OperationGroup {
    Consent,
    Accounts,
    Payments,
    Baskets,
    Authorisations,
    Sandbox,
}

/// The PSD2 role an operation needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[allow(clippy::upper_case_acronyms)]
pub enum RequiredRole {
    #[serde(rename = "PSP_AI")]
    PspAi,
    #[serde(rename = "PSP_PI")]
    PspPi,
}

/// The HTTP method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum HttpMethod {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    pub id: &'static str,
    /// The operation of the service's OpenAPI document this form sends.
    pub operation_id: &'static str,
    pub group: OperationGroup,
    pub name: &'static str,
    pub method: HttpMethod,
    /// With `{name}` for each path parameter still to fill.
    pub path: String,
    pub path_params: Vec<PathParam>,
    pub query: Vec<QueryParam>,
    /// `[name, value]`: the headers the operation requires and the usual ones, besides those signing adds.
    pub headers: Vec<(String, String)>,
    #[schema(required = true)]
    pub body: Option<String>,
    #[schema(required = true)]
    pub role: Option<RequiredRole>,
    pub description: &'static str,
    pub hints: Vec<HeaderHint>,
}

/// Headers the signing adds: never part of a form.
const SIGNING: [&str; 5] = [
    "X-Request-ID",
    "Date",
    "Digest",
    "Signature",
    "TPP-Signature-Certificate",
];

/// The operation of the document with this operationId: its path and method.
fn find<'d>(document: &'d Value, operation_id: &str) -> Option<(&'d str, &'d str, &'d Value)> {
    document["paths"]
        .as_object()?
        .iter()
        .find_map(|(path, item)| {
            item.as_object()?.iter().find_map(|(method, operation)| {
                (operation["operationId"] == operation_id).then_some((
                    path.as_str(),
                    method.as_str(),
                    operation,
                ))
            })
        })
}

fn enumerated(schema: &Value) -> Option<Vec<String>> {
    schema["enum"].as_array().map(|values| {
        values
            .iter()
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    })
}

/// What a path parameter means and where its value comes from, by its name (and, for `accountId`,
/// whether the path is a card account's).
fn meaning(path: &str, name: &str) -> (&'static str, Option<&'static str>, Option<Follows>) {
    match name {
        "accountId" if path.starts_with("/v1/card-accounts") => (
            "the card account's resourceId (from List card accounts)",
            Some("accountId"),
            Some(Follows::CardAccount),
        ),
        "accountId" => (
            "the account's resourceId (from List accounts)",
            Some("accountId"),
            Some(Follows::Account),
        ),
        "transactionId" => (
            "from the transaction list",
            Some("transactionId"),
            Some(Follows::Transaction),
        ),
        "paymentId" => (
            "from the payment's creation answer",
            Some("paymentId"),
            Some(Follows::Payment),
        ),
        "service" => (
            "payments, periodic-payments or bulk-payments, as the payment was created",
            Some("paymentService"),
            Some(Follows::Payment),
        ),
        "product" => (
            "the payment product the payment was created with",
            Some("paymentProduct"),
            Some(Follows::Payment),
        ),
        "basketId" => (
            "from the basket's creation answer",
            Some("basketId"),
            Some(Follows::Basket),
        ),
        "authorisationId" => (
            "the last part of the scaRedirect, or from the authorisation answer",
            Some("authorisationId"),
            Some(Follows::Authorisation),
        ),
        "consentId" => (
            "from the consent",
            Some("consentId"),
            Some(Follows::Consent),
        ),
        _ => ("", None, None),
    }
}

fn method(name: &str) -> HttpMethod {
    match name {
        "post" => HttpMethod::Post,
        "put" => HttpMethod::Put,
        "patch" => HttpMethod::Patch,
        "delete" => HttpMethod::Delete,
        _ => HttpMethod::Get,
    }
}

fn group(name: &str) -> OperationGroup {
    match name {
        "Consent" => OperationGroup::Consent,
        "Accounts" => OperationGroup::Accounts,
        "Payments" => OperationGroup::Payments,
        "Baskets" => OperationGroup::Baskets,
        "Authorisations" => OperationGroup::Authorisations,
        _ => OperationGroup::Sandbox,
    }
}

fn role(name: Option<&str>) -> Option<RequiredRole> {
    match name? {
        "PSP_AI" => Some(RequiredRole::PspAi),
        "PSP_PI" => Some(RequiredRole::PspPi),
        _ => None,
    }
}

/// One form made from its operation in `document`; `None` when the document has no such operation.
pub fn build(document: &Value, form: &Form) -> Option<Operation> {
    let (template, method_name, operation) = find(document, form.operation_id)?;
    let parameters = operation["parameters"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let mut path = template.to_owned();
    for (name, value) in form.fixed {
        path = path.replace(&format!("{{{name}}}"), value);
    }
    let of = |place: &'static str| {
        parameters
            .iter()
            .filter(move |p| p["in"] == place)
            .filter_map(|p| Some((p["name"].as_str()?, p)))
    };
    let mut open: Vec<(usize, &str, &Value)> = of("path")
        .filter_map(|(name, p)| Some((path.find(&format!("{{{name}}}"))?, name, p)))
        .collect();
    open.sort_by_key(|(at, _, _)| *at);
    let path_params = open
        .into_iter()
        .map(|(_, name, p)| {
            let (description, source, follows) = meaning(&path, name);
            PathParam {
                name: name.to_owned(),
                description,
                source,
                follows,
                values: enumerated(&p["schema"]),
            }
        })
        .collect();
    let query = of("query")
        .map(|(name, p)| QueryParam {
            name: name.to_owned(),
            value: form
                .query
                .iter()
                .find(|(n, _)| *n == name)
                .map_or("", |(_, v)| v),
            required: p["required"] == true,
            values: enumerated(&p["schema"]),
        })
        .collect();
    let headers = of("header")
        .filter(|(name, _)| !SIGNING.iter().any(|s| s.eq_ignore_ascii_case(name)))
        .filter_map(|(name, p)| {
            let required = p["required"] == true;
            let asked = form.with_headers.contains(&name);
            match usual_value(name) {
                Some((value, usual)) if required || usual || asked => {
                    Some((name.to_owned(), value.to_owned()))
                }
                // A required header the composer has no value for starts empty, to be filled in.
                None if required => Some((name.to_owned(), String::new())),
                _ => None,
            }
        })
        .collect();
    let method = method(method_name);
    let body = form.body.map(|make| make()).or_else(|| {
        matches!(
            method,
            HttpMethod::Post | HttpMethod::Put | HttpMethod::Patch
        )
        .then(|| "{}".to_owned())
    });
    Some(Operation {
        id: form.id,
        operation_id: form.operation_id,
        group: group(form.group),
        name: form.name,
        method,
        path,
        path_params,
        query,
        headers,
        body,
        role: role(form.role),
        description: form.description,
        hints: form
            .hints
            .iter()
            .map(|(header, text)| HeaderHint { header, text })
            .collect(),
    })
}

/// Every form, grouped as the composer lists them; built once from the service's document.
pub fn catalogue() -> &'static [Operation] {
    static CATALOGUE: OnceLock<Vec<Operation>> = OnceLock::new();
    CATALOGUE.get_or_init(|| {
        let document = crate::api::openapi::document();
        FORMS
            .iter()
            .map(|form| {
                build(document, form).unwrap_or_else(|| {
                    panic!(
                        "the composer's form {} names {}, which the OpenAPI document does not have",
                        form.id, form.operation_id
                    )
                })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The operations of the bank's interface: everything under /v1 but the sandbox's own endpoints and
    /// the TPP's contact registration.
    fn bank_operations() -> Vec<String> {
        let document = crate::api::openapi::document();
        let mut ids = Vec::new();
        for (path, item) in document["paths"].as_object().unwrap() {
            if !path.starts_with("/v1/")
                || path.starts_with("/v1/sandbox/")
                || path.starts_with("/v1/tpp-dialogue")
            {
                continue;
            }
            for operation in item.as_object().unwrap().values() {
                ids.push(operation["operationId"].as_str().unwrap().to_owned());
            }
        }
        ids
    }

    #[test]
    fn every_bank_operation_of_the_document_has_a_form_and_every_form_names_one() {
        let document = crate::api::openapi::document();
        for form in FORMS {
            assert!(
                build(document, form).is_some(),
                "{} names {}, which is not in the document",
                form.id,
                form.operation_id
            );
        }
        for id in bank_operations() {
            assert!(
                FORMS.iter().any(|f| f.operation_id == id),
                "the document's {id} has no composer form"
            );
        }
    }

    #[test]
    fn forms_are_unique_and_take_every_parameter_their_path_leaves_open() {
        let all = catalogue();
        let mut ids: Vec<_> = all.iter().map(|o| o.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        for o in all {
            let open = o.path.matches('{').count();
            assert_eq!(open, o.path_params.len(), "{}: {}", o.id, o.path);
            for p in &o.path_params {
                assert!(o.path.contains(&format!("{{{}}}", p.name)), "{}", o.id);
                assert!(p.follows.is_some(), "{}: {} follows nothing", o.id, p.name);
            }
            if let Some(body) = o.body.as_deref().filter(|b| !b.contains('…')) {
                serde_json::from_str::<Value>(body).unwrap_or_else(|e| panic!("{}: {e}", o.id));
            }
        }
    }

    #[test]
    fn payment_forms_carry_psu_context_and_the_psu_id_placeholder_and_say_why() {
        let straks = catalogue().iter().find(|o| o.id == "straks").unwrap();
        assert_eq!(
            straks.path,
            "/v1/payments/instant-norwegian-domestic-credit-transfers-straks"
        );
        let header = |name: &str| {
            straks
                .headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(header("PSU-Context"), Some("PRIVATE"));
        assert_eq!(header("PSU-ID"), Some("{{persona.psuId}}"));
        assert_eq!(header("x-accept-fix"), Some("amount-as-string"));
        assert!(straks
            .hints
            .iter()
            .any(|h| h.header == "PSU-ID" && h.text.contains("X-PSU-IDENTITY")));
        let status = catalogue()
            .iter()
            .find(|o| o.id == "payment-status")
            .unwrap();
        let names: Vec<_> = status.path_params.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["service", "product", "paymentId"]);
        assert!(status
            .path_params
            .iter()
            .all(|p| p.follows == Some(Follows::Payment)));
        let services = status.path_params[0].values.as_ref().unwrap();
        assert!(services.contains(&"periodic-payments".to_owned()));
        let products = status.path_params[1].values.as_ref().unwrap();
        assert!(products.contains(&"norwegian-domestic-credit-transfers".to_owned()));
    }
}
