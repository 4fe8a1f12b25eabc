//! The composer's forms: every operation of the bank's interface a TPP calls, with SPEC.md's headers
//! filled in (placeholders the composer fills from the persona) and a body to start from.

use serde::Serialize;

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PathParam {
    pub name: &'static str,
    pub description: &'static str,
    /// The earlier answer this usually comes from.
    pub source: Option<&'static str>,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueryParam {
    pub name: &'static str,
    pub value: &'static str,
    pub required: bool,
}

#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Operation {
    pub id: &'static str,
    pub group: &'static str,
    pub name: &'static str,
    pub method: &'static str,
    pub path: &'static str,
    pub path_params: Vec<PathParam>,
    pub query: Vec<QueryParam>,
    pub headers: Vec<(&'static str, &'static str)>,
    pub body: Option<String>,
    pub role: Option<&'static str>,
    pub description: &'static str,
}

const SESSION: (&str, &str) = ("TPP-Session-ID", "{{persona.tppSessionId}}");
const REDIRECT: (&str, &str) = ("TPP-Redirect-URI", "{{callbackUrl}}?persona={{persona.id}}");
const PSU_ID: (&str, &str) = ("PSU-ID", "{{persona.psuId}}");
const CORPORATE: (&str, &str) = ("PSU-Corporate-ID", "{{persona.psuCorporateId}}");
const PRESENT: (&str, &str) = ("PSU-IP-Address", "192.0.2.10");
const FIX: (&str, &str) = ("x-accept-fix", "amount-as-string");

fn ais() -> Vec<(&'static str, &'static str)> {
    vec![SESSION, REDIRECT, PSU_ID, CORPORATE, PRESENT]
}

fn pis() -> Vec<(&'static str, &'static str)> {
    vec![FIX, SESSION, REDIRECT, PSU_ID, CORPORATE, PRESENT]
}

fn param(name: &'static str, description: &'static str, source: &'static str) -> PathParam {
    PathParam {
        name,
        description,
        source: Some(source),
    }
}

fn query(name: &'static str, value: &'static str, required: bool) -> QueryParam {
    QueryParam {
        name,
        value,
        required,
    }
}

fn payment_body(amount: &str, remittance: &str) -> String {
    format!(
        "{{\n  \"instructedAmount\": {{\"amount\": \"{amount}\", \"currency\": \"NOK\"}},\n  \"creditorName\": \"Ola Nordmann\",\n  \
         \"creditorAccount\": {{\"bban\": \"12051001018\", \"currency\": \"NOK\"}},\n  \"creditorAddress\": {{\"street\": \"Storgata\", \
         \"buildingNumber\": \"1\", \"postalCode\": \"0155\", \"townName\": \"Oslo\", \"country\": \"NO\"}},\n  \
         \"debtorAccount\": {{\"bban\": \"12051000003\", \"currency\": \"NOK\"}},\n  {remittance}\n}}"
    )
}

fn op(
    id: &'static str,
    group: &'static str,
    name: &'static str,
    method: &'static str,
    path: &'static str,
    role: Option<&'static str>,
    description: &'static str,
) -> Operation {
    Operation {
        id,
        group,
        name,
        method,
        path,
        path_params: Vec::new(),
        query: Vec::new(),
        headers: Vec::new(),
        body: None,
        role,
        description,
    }
}

/// Every form, grouped as the composer lists them.
pub fn catalogue() -> Vec<Operation> {
    let account = || param("accountId", "the account's resourceId", "accountId");
    let payment = || param("paymentId", "from the creation answer", "paymentId");
    let basket = || param("basketId", "from the basket's creation answer", "basketId");
    let (ai, pi) = (Some("PSP_AI"), Some("PSP_PI"));
    let mut all = vec![
        Operation {
            headers: ais(),
            ..op("user-lookup", "Consent", "Look up the PSU (GET /v1/users)", "GET", "/v1/users", None,
                "Starts an SCA that only identifies the PSU: the redirect brings the psu-id.")
        },
        Operation {
            headers: ais(),
            body: Some("{}".into()),
            ..op("bank-offered-consent", "Consent", "Bank-offered consent", "POST", "/v1/bank-offered-consents", ai,
                "Starts the consent flow: 401 with scaRedirect; the PSU ticks the accounts on the bank's page.")
        },
        Operation {
            headers: ais(),
            ..op("consent-read", "Consent", "Read the consent", "GET", "/v1/bank-offered-consents", ai,
                "The accounts the PSU granted this TPP.")
        },
        Operation {
            headers: ais(),
            body: Some("{}".into()),
            ..op("consents-deprecated", "Consent", "Consent (deprecated /v1/consents)", "POST", "/v1/consents", ai,
                "Deprecated: ignores its body and answers with an SCA redirect.")
        },
        Operation {
            headers: ais(),
            ..op("agreements", "Consent", "Corporate agreements", "GET", "/v1/agreements", None,
                "The PSU's corporate agreements; the chosen one goes in PSU-Corporate-ID.")
        },
        Operation {
            headers: ais(),
            ..op("accounts", "Accounts", "List accounts", "GET", "/v1/accounts", ai,
                "The accounts the PSU consented to (401 with scaRedirect when there is no consent yet).")
        },
        Operation {
            headers: ais(),
            path_params: vec![account()],
            ..op("account", "Accounts", "Account details", "GET", "/v1/accounts/{accountId}", ai, "One account.")
        },
        Operation {
            headers: ais(),
            path_params: vec![account()],
            ..op("balances", "Accounts", "Balances", "GET", "/v1/accounts/{accountId}/balances", ai,
                "Without PSU-IP-Address (PSU not present): at most 4 calls per 24 hours.")
        },
        Operation {
            headers: ais(),
            path_params: vec![account()],
            query: vec![query("bookingStatus", "booked", true), query("dateFrom", "", false), query("dateTo", "", false),
                query("limit", "", false), query("offset", "", false)],
            ..op("transactions", "Accounts", "Transactions", "GET", "/v1/accounts/{accountId}/transactions", ai,
                "The slim list; a page holds 200 by default.")
        },
        Operation {
            headers: ais(),
            path_params: vec![account(), param("transactionId", "from the list", "transactionId")],
            ..op("transaction", "Accounts", "Transaction details", "GET",
                "/v1/accounts/{accountId}/transactions/{transactionId}", ai, "One transaction whole.")
        },
        Operation {
            headers: ais(),
            ..op("card-accounts", "Accounts", "List card accounts", "GET", "/v1/card-accounts", ai, "Card accounts.")
        },
        Operation {
            headers: ais(),
            path_params: vec![account()],
            query: vec![query("bookingStatus", "booked", true)],
            ..op("card-transactions", "Accounts", "Card transactions", "GET", "/v1/card-accounts/{accountId}/transactions",
                ai, "A card account's transactions.")
        },
        Operation {
            headers: pis(),
            body: Some(payment_body("125.50", "\"remittanceInformationUnstructured\": \"Middag\"")),
            ..op("straks", "Payments", "Instant payment (straks)", "POST",
                "/v1/payments/instant-norwegian-domestic-credit-transfers-straks", pi,
                "Executed at once after SCA. The answer's scaRedirect is the PSU's approval page.")
        },
        Operation {
            headers: pis(),
            body: Some(payment_body("1000.00", "\"remittanceInformationStructured\": {\"reference\": \"1234567890128\", \"referenceType\": \"KID\"}")),
            ..op("domestic", "Payments", "Domestic credit transfer", "POST",
                "/v1/payments/norwegian-domestic-credit-transfers", pi,
                "Queued for the next batch run after SCA (ACTC, then ACSC). A KID goes in the structured remittance.")
        },
        Operation {
            headers: pis(),
            body: Some(payment_body("500.00", "\"remittanceInformationUnstructured\": \"Husleie\",\n  \"startDate\": \"2026-07-01\",\n  \"frequency\": \"Monthly\",\n  \"dayOfExecution\": \"1\"")),
            ..op("periodic", "Payments", "Standing order", "POST",
                "/v1/periodic-payments/norwegian-domestic-credit-transfers", pi, "A periodic payment.")
        },
        Operation {
            headers: pis(),
            body: Some("{\n  \"batchBookingPreferred\": false,\n  \"debtorAccount\": {\"bban\": \"12051000003\", \"currency\": \"NOK\"},\n  \"payments\": [\n    {\"instructedAmount\": {\"amount\": \"10.00\", \"currency\": \"NOK\"}, \"creditorName\": \"Ola Nordmann\", \"creditorAccount\": {\"bban\": \"12051001018\", \"currency\": \"NOK\"}, \"creditorAddress\": {\"townName\": \"Oslo\", \"country\": \"NO\"}, \"remittanceInformationUnstructured\": \"Del 1\"}\n  ]\n}".into()),
            ..op("bulk", "Payments", "Bulk payment", "POST", "/v1/bulk-payments/norwegian-domestic-credit-transfers", pi,
                "Several orders from one account, decided together at the batch run.")
        },
        Operation {
            headers: pis(),
            path_params: vec![param("paymentService", "payments, periodic-payments or bulk-payments", "paymentService"),
                param("paymentProduct", "e.g. norwegian-domestic-credit-transfers", "paymentProduct"), payment()],
            ..op("payment-status", "Payments", "Payment status", "GET",
                "/v1/{paymentService}/{paymentProduct}/{paymentId}/status", pi, "The transactionStatus (and fundsAvailable).")
        },
        Operation {
            headers: pis(),
            path_params: vec![param("paymentService", "payments, periodic-payments or bulk-payments", "paymentService"),
                param("paymentProduct", "e.g. norwegian-domestic-credit-transfers", "paymentProduct"), payment()],
            ..op("payment", "Payments", "Payment details", "GET",
                "/v1/{paymentService}/{paymentProduct}/{paymentId}", pi, "The payment as created, with its status.")
        },
        Operation {
            headers: pis(),
            path_params: vec![param("paymentService", "payments, periodic-payments or bulk-payments", "paymentService"),
                param("paymentProduct", "e.g. norwegian-domestic-credit-transfers", "paymentProduct"), payment()],
            ..op("payment-delete", "Payments", "Delete a payment", "DELETE",
                "/v1/{paymentService}/{paymentProduct}/{paymentId}", pi, "Refused for PDNG payments.")
        },
        Operation {
            headers: pis(),
            body: Some("{\n  \"instructedAmount\": {\"amount\": \"12000.00\", \"currency\": \"NOK\"}\n}".into()),
            ..op("fee-information", "Payments", "Instant payment fee", "POST",
                "/v1/payments/instant-norwegian-credit-transfers-straks/fee-information", pi, "The fee an instant payment would cost.")
        },
        Operation {
            headers: pis(),
            body: Some("{\n  \"paymentIds\": [\"…\", \"…\"]\n}".into()),
            ..op("basket", "Baskets", "Create a signing basket", "POST", "/v1/signing-baskets", pi,
                "Up to 10 payments signed with one SCA (not bulk or periodic ones).")
        },
        Operation {
            headers: pis(),
            path_params: vec![basket()],
            ..op("basket-read", "Baskets", "Basket details", "GET", "/v1/signing-baskets/{basketId}", pi,
                "Its payments and the worst-case status.")
        },
        Operation {
            headers: pis(),
            path_params: vec![basket()],
            ..op("basket-status", "Baskets", "Basket status", "GET", "/v1/signing-baskets/{basketId}/status", pi, "RCVD, ACTC, PATC or RJCT.")
        },
        Operation {
            headers: pis(),
            path_params: vec![basket()],
            ..op("basket-delete", "Baskets", "Delete a basket", "DELETE", "/v1/signing-baskets/{basketId}", pi,
                "Only before its payments are authorised.")
        },
        Operation {
            headers: pis(),
            path_params: vec![param("paymentService", "payments, periodic-payments or bulk-payments", "paymentService"),
                param("paymentProduct", "e.g. norwegian-domestic-credit-transfers", "paymentProduct"), payment()],
            body: Some("{}".into()),
            ..op("payment-authorisation", "Authorisations", "Start a payment's authorisation", "POST",
                "/v1/{paymentService}/{paymentProduct}/{paymentId}/authorisations", pi,
                "The startAuthorisation link: answers with a fresh scaRedirect.")
        },
        Operation {
            headers: pis(),
            path_params: vec![basket()],
            body: Some("{}".into()),
            ..op("basket-authorisation", "Authorisations", "Start a basket's authorisation", "POST",
                "/v1/signing-baskets/{basketId}/authorisations", pi, "One SCA for every payment of the basket.")
        },
        Operation {
            path_params: vec![param("authorisationId", "the last part of the scaRedirect", "authorisationId")],
            body: Some("{\n  \"nationalId\": \"14838510036\"\n}".into()),
            ..op("sca-automation", "Authorisations", "Complete SCA without a browser", "POST",
                "/v1/sandbox/sca/{authorisationId}", None,
                "The sandbox's automation of the bank's pages: identify, choose, confirm in one call.")
        },
        op("sandbox-customers", "Sandbox", "List sandbox customers", "GET", "/v1/sandbox/customers", None,
            "The mock customers with their accounts' ids."),
        Operation {
            body: Some("{\n  \"advance\": \"PT3H\"\n}".into()),
            ..op("sandbox-clock", "Sandbox", "Move the clock", "PUT", "/v1/sandbox/clock", None,
                "Set, advance or freeze simulated time; the batch runs passed are performed before the answer.")
        },
        op("sandbox-batch-run", "Sandbox", "Run a batch now", "POST", "/v1/sandbox/batch-runs", None,
            "Processes the due payments now."),
    ];
    for operation in &mut all {
        if operation.method != "GET" && operation.method != "DELETE" && operation.body.is_none() {
            operation.body = Some("{}".into());
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_has_a_unique_id_and_its_path_params_appear_in_its_path() {
        let all = catalogue();
        let mut ids: Vec<_> = all.iter().map(|o| o.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len());
        for o in &all {
            for p in &o.path_params {
                assert!(
                    o.path.contains(&format!("{{{}}}", p.name)),
                    "{} lacks {}",
                    o.id,
                    p.name
                );
            }
            if let Some(body) = &o.body {
                if !body.contains('…') {
                    serde_json::from_str::<serde_json::Value>(body)
                        .unwrap_or_else(|e| panic!("{}: {e}", o.id));
                }
            }
        }
    }
}
