//! What the OpenAPI document cannot say about the composer's forms, one entry per form keyed by the
//! document's operationId: the group and name it is listed under, the role it needs, a body to start
//! from, path parameters a form fixes (each payment product has its own form of the one creation
//! operation), query values to start from, optional headers it sends besides the usual ones, and hints.
//! Methods, paths, parameters and which headers are required come from the document (`operations`).

/// One form of the composer.
pub struct Form {
    pub id: &'static str,
    /// The operation of the OpenAPI document it sends.
    pub operation_id: &'static str,
    pub group: &'static str,
    pub name: &'static str,
    pub role: Option<&'static str>,
    pub description: &'static str,
    /// Path parameters this form fills itself, e.g. the payment service and product.
    pub fixed: &'static [(&'static str, &'static str)],
    /// Query values to start from (the document says which parameters there are).
    pub query: &'static [(&'static str, &'static str)],
    /// Documented optional headers this form sends besides the usual ones ([`usual_value`]).
    pub with_headers: &'static [&'static str],
    pub body: Option<fn() -> String>,
    /// `(header, text)`: what to know about a header of this form.
    pub hints: &'static [(&'static str, &'static str)],
}

/// The value a header starts with in every form whose operation documents it, and whether an optional
/// one is sent without being asked for (`Some(true)`); the composer fills the placeholders from the
/// persona and leaves out a header whose placeholder the persona has no value for yet.
pub fn usual_value(header: &str) -> Option<(&'static str, bool)> {
    Some(match header {
        "PSU-ID" => ("{{persona.psuId}}", true),
        "PSU-Corporate-ID" => ("{{persona.psuCorporateId}}", true),
        "TPP-Session-ID" => ("{{persona.tppSessionId}}", true),
        "TPP-Redirect-URI" => ("{{callbackUrl}}?persona={{persona.id}}", true),
        "PSU-IP-Address" => ("192.0.2.10", true),
        "x-accept-fix" => ("amount-as-string", false),
        "PSU-Context" => ("PRIVATE", false),
        _ => return None,
    })
}

const PAYMENT_PSU: (&str, &str) = (
    "PSU-ID",
    "Sent when the persona has a PSU-ID (an SCA or a GET /v1/users gave it one); left out otherwise, and \
     then PSU-Context: PRIVATE makes the payment's own SCA identify the PSU. To preselect the PSU instead, \
     add X-PSU-IDENTITY with their national identity number.",
);

fn payment_body(amount: &str, remittance: &str) -> String {
    format!(
        "{{\n  \"instructedAmount\": {{\"amount\": \"{amount}\", \"currency\": \"NOK\"}},\n  \"creditorName\": \"Ola Nordmann\",\n  \
         \"creditorAccount\": {{\"bban\": \"12051001018\", \"currency\": \"NOK\"}},\n  \"creditorAddress\": {{\"street\": \"Storgata\", \
         \"buildingNumber\": \"1\", \"postalCode\": \"0155\", \"townName\": \"Oslo\", \"country\": \"NO\"}},\n  \
         \"debtorAccount\": {{\"bban\": \"12051000003\", \"currency\": \"NOK\"}},\n  {remittance}\n}}"
    )
}

fn straks_body() -> String {
    payment_body(
        "125.50",
        "\"remittanceInformationUnstructured\": \"Middag\"",
    )
}

fn domestic_body() -> String {
    payment_body(
        "1000.00",
        "\"remittanceInformationStructured\": {\"reference\": \"1234567890128\", \"referenceType\": \"KID\"}",
    )
}

fn periodic_body() -> String {
    payment_body(
        "500.00",
        "\"remittanceInformationUnstructured\": \"Husleie\",\n  \"startDate\": \"2026-07-01\",\n  \
         \"frequency\": \"Monthly\",\n  \"dayOfExecution\": \"1\"",
    )
}

fn bulk_body() -> String {
    "{\n  \"batchBookingPreferred\": false,\n  \"debtorAccount\": {\"bban\": \"12051000003\", \"currency\": \"NOK\"},\n  \
     \"payments\": [\n    {\"instructedAmount\": {\"amount\": \"10.00\", \"currency\": \"NOK\"}, \"creditorName\": \"Ola Nordmann\", \
     \"creditorAccount\": {\"bban\": \"12051001018\", \"currency\": \"NOK\"}, \"creditorAddress\": {\"townName\": \"Oslo\", \
     \"country\": \"NO\"}, \"remittanceInformationUnstructured\": \"Del 1\"}\n  ]\n}"
        .to_owned()
}

fn fee_body() -> String {
    "{\n  \"instructedAmount\": {\"amount\": \"12000.00\", \"currency\": \"NOK\"}\n}".to_owned()
}

fn basket_body() -> String {
    "{\n  \"paymentIds\": [\"…\", \"…\"]\n}".to_owned()
}

fn empty_body() -> String {
    "{}".to_owned()
}

fn sca_body() -> String {
    "{\n  \"nationalId\": \"14838510036\"\n}".to_owned()
}

fn clock_body() -> String {
    "{\n  \"advance\": \"PT3H\"\n}".to_owned()
}

const AI: Option<&str> = Some("PSP_AI");
const PI: Option<&str> = Some("PSP_PI");

/// A form with nothing but its identity, to be completed with `..`.
const fn form(
    id: &'static str,
    operation_id: &'static str,
    group: &'static str,
    name: &'static str,
    role: Option<&'static str>,
    description: &'static str,
) -> Form {
    Form {
        id,
        operation_id,
        group,
        name,
        role,
        description,
        fixed: &[],
        query: &[],
        with_headers: &[],
        body: None,
        hints: &[],
    }
}

const STRAKS: &[(&str, &str)] = &[
    ("service", "payments"),
    (
        "product",
        "instant-norwegian-domestic-credit-transfers-straks",
    ),
];
const DOMESTIC: &[(&str, &str)] = &[
    ("service", "payments"),
    ("product", "norwegian-domestic-credit-transfers"),
];
const PERIODIC: &[(&str, &str)] = &[
    ("service", "periodic-payments"),
    ("product", "norwegian-domestic-credit-transfers"),
];
const BULK: &[(&str, &str)] = &[
    ("service", "bulk-payments"),
    ("product", "norwegian-domestic-credit-transfers"),
];
const BOOKED: &[(&str, &str)] = &[("bookingStatus", "booked")];

/// Every form, in the order the composer lists them.
pub const FORMS: &[Form] = &[
    form("user-lookup", "get_v1_users", "Consent", "Look up the PSU (GET /v1/users)", None,
        "Starts an SCA that only identifies the PSU: the redirect brings the psu-id."),
    form("user", "get_v1_user", "Consent", "Who the PSU is (GET /v1/user)", None,
        "200 once the PSU completed SCA in this TPP session; before that 401 with scaRedirect."),
    Form { body: Some(empty_body), ..form("bank-offered-consent", "post_v1_bank_offered_consents", "Consent",
        "Bank-offered consent", AI, "Starts the consent flow: 401 with scaRedirect; the PSU ticks the accounts on the bank's page.") },
    form("consent-read", "get_v1_bank_offered_consents", "Consent", "Read the consent", AI,
        "The accounts the PSU granted this TPP."),
    Form { body: Some(empty_body), ..form("consents-deprecated", "post_v1_consents", "Consent",
        "Consent (deprecated /v1/consents)", AI, "Deprecated: ignores its body and answers with an SCA redirect.") },
    form("agreements", "get_v1_agreements", "Consent", "Corporate agreements", None,
        "The PSU's corporate agreements; the chosen one goes in PSU-Corporate-ID."),
    form("accounts", "get_v1_accounts", "Accounts", "List accounts", AI,
        "The accounts the PSU consented to (401 with scaRedirect when there is no consent yet)."),
    form("account", "get_v1_accounts_accountId", "Accounts", "Account details", AI, "One account."),
    form("balances", "get_v1_accounts_accountId_balances", "Accounts", "Balances", AI,
        "Without PSU-IP-Address (PSU not present): at most 4 calls per 24 hours."),
    Form { query: BOOKED, ..form("transactions", "get_v1_accounts_accountId_transactions", "Accounts",
        "Transactions", AI, "The slim list; a page holds 200 by default.") },
    form("transaction", "get_v1_accounts_accountId_transactions_transactionId", "Accounts",
        "Transaction details", AI, "One transaction whole."),
    form("card-accounts", "get_v1_card_accounts", "Accounts", "List card accounts", AI, "Card accounts."),
    form("card-account", "get_v1_card_accounts_accountId", "Accounts", "Card account details", AI,
        "One card account."),
    form("card-balances", "get_v1_card_accounts_accountId_balances", "Accounts", "Card account balances",
        AI, "A card account's balances."),
    Form { query: BOOKED, ..form("card-transactions", "get_v1_card_accounts_accountId_transactions",
        "Accounts", "Card transactions", AI, "A card account's transactions.") },
    Form { fixed: STRAKS, with_headers: &["PSU-Context"], body: Some(straks_body), hints: &[PAYMENT_PSU],
        ..form("straks", "post_v1_service_product", "Payments", "Instant payment (straks)", PI,
        "Executed at once after SCA. The answer's scaRedirect is the PSU's approval page.") },
    Form { fixed: DOMESTIC, with_headers: &["PSU-Context"], body: Some(domestic_body), hints: &[PAYMENT_PSU],
        ..form("domestic", "post_v1_service_product", "Payments", "Domestic credit transfer", PI,
        "Queued for the next batch run after SCA (ACTC, then ACSC). A KID goes in the structured remittance.") },
    Form { fixed: PERIODIC, with_headers: &["PSU-Context"], body: Some(periodic_body), hints: &[PAYMENT_PSU],
        ..form("periodic", "post_v1_service_product", "Payments", "Standing order", PI, "A periodic payment.") },
    Form { fixed: BULK, with_headers: &["PSU-Context"], body: Some(bulk_body), hints: &[PAYMENT_PSU],
        ..form("bulk", "post_v1_service_product", "Payments", "Bulk payment", PI,
        "Several orders from one account, decided together at the batch run.") },
    form("payment-status", "get_v1_service_product_paymentId_status", "Payments", "Payment status", PI,
        "The transactionStatus (and fundsAvailable)."),
    form("payment", "get_v1_service_product_paymentId", "Payments", "Payment details", PI,
        "The payment as created, with its status."),
    form("payment-delete", "delete_v1_service_product_paymentId", "Payments", "Delete a payment", PI,
        "Refused for PDNG payments."),
    Form { body: Some(fee_body), ..form("fee-information",
        "post_v1_payments_instant_norwegian_domestic_credit_transfers_straks_fee_information", "Payments",
        "Instant payment fee", PI, "The fee an instant payment would cost.") },
    Form { body: Some(fee_body), ..form("fee-information-short",
        "post_v1_payments_instant_norwegian_credit_transfers_straks_fee_information", "Payments",
        "Instant payment fee (short product name)", PI, "The same, under the product name the bank also accepts.") },
    Form { body: Some(basket_body), ..form("basket", "post_v1_signing_baskets", "Baskets",
        "Create a signing basket", PI, "Up to 10 payments signed with one SCA (not bulk or periodic ones).") },
    form("basket-read", "get_v1_signing_baskets_basketId", "Baskets", "Basket details", PI,
        "Its payments and the worst-case status."),
    form("basket-status", "get_v1_signing_baskets_basketId_status", "Baskets", "Basket status", PI,
        "RCVD, ACTC, PATC or RJCT."),
    form("basket-delete", "delete_v1_signing_baskets_basketId", "Baskets", "Delete a basket", PI,
        "Only before its payments are authorised."),
    Form { body: Some(empty_body), ..form("payment-authorisation",
        "post_v1_service_product_paymentId_authorisations", "Authorisations",
        "Start a payment's authorisation", PI, "The startAuthorisation link: answers with a fresh scaRedirect and its scaStatus.") },
    form("payment-authorisations", "get_v1_service_product_paymentId_authorisations",
        "Authorisations", "A payment's authorisations", PI, "The ids of those started on it, oldest first."),
    form("payment-authorisation-status", "get_v1_service_product_paymentId_authorisations_authorisationId",
        "Authorisations", "A payment authorisation's status", PI, "Where the PSU is in the SCA."),
    Form { body: Some(empty_body), ..form("basket-authorisation",
        "post_v1_signing_baskets_basketId_authorisations", "Authorisations",
        "Start a basket's authorisation", PI, "One SCA for every payment of the basket.") },
    form("basket-authorisations", "get_v1_signing_baskets_basketId_authorisations",
        "Authorisations", "A basket's authorisations", PI, "The ids of those started on it, oldest first."),
    form("basket-authorisation-status", "get_v1_signing_baskets_basketId_authorisations_authorisationId",
        "Authorisations", "A basket authorisation's status", PI, "Where the PSU is in the SCA."),
    Form { body: Some(sca_body), ..form("sca-automation", "post_v1_sandbox_sca_authorisationId",
        "Authorisations", "Complete SCA without a browser", None,
        "The sandbox's automation of the bank's pages: identify, choose, confirm in one call.") },
    form("sandbox-customers", "get_v1_sandbox_customers", "Sandbox", "List sandbox customers", None,
        "The mock customers with their accounts' ids."),
    Form { body: Some(clock_body), ..form("sandbox-clock", "put_v1_sandbox_clock", "Sandbox",
        "Move the clock", None,
        "Set, advance or freeze simulated time; the batch runs passed are performed before the answer.") },
    form("sandbox-batch-run", "post_v1_sandbox_batch_runs", "Sandbox", "Run a batch now", None,
        "Processes the due payments now."),
];
