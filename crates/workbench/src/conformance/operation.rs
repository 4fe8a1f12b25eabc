//! Which operation of the bank's interface an exchange called, from its method and path alone (the
//! `/api-sandbox/v1` prefix is the same interface as `/v1`). The rules ask "is this a payment creation",
//! "which account does this read", "which header set applies" through it.

use super::observed::Area;
use xs2a_core::bank::mock::PLATFORM_PREFIX;

/// What an account read asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AccountPart {
    Details,
    Balances,
    Transactions,
    TransactionDetails,
}

/// An operation, with the ids its path names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Op {
    /// `/v1/sandbox/...` other than the SCA automation.
    Sandbox,
    /// `POST /v1/sandbox/sca/{id}`: the PSU's SCA, automated.
    ScaAutomation {
        authorisation: String,
    },
    /// `/sca/{id}[/step]`: the PSU's browser on the bank's pages.
    ScaPage {
        authorisation: String,
        step: Option<String>,
    },
    AccountList {
        card: bool,
    },
    Account {
        id: String,
        card: bool,
        part: AccountPart,
    },
    /// `POST /v1/bank-offered-consents`, or the deprecated `POST /v1/consents`.
    ConsentCreate {
        deprecated: bool,
    },
    ConsentRead,
    UserLookup,
    Agreements,
    PaymentCreate {
        service: String,
        product: String,
    },
    FeeInformation,
    PaymentRead {
        id: String,
        status: bool,
    },
    PaymentDelete {
        id: String,
    },
    PaymentAuthorise {
        id: String,
    },
    PaymentAuthorisationRead {
        id: String,
    },
    BasketCreate,
    BasketRead {
        id: String,
        status: bool,
    },
    BasketDelete {
        id: String,
    },
    BasketAuthorise {
        id: String,
    },
    BasketAuthorisationRead {
        id: String,
    },
    TppDialogue,
    Other,
}

const PAYMENT_SERVICES: [&str; 3] = ["payments", "periodic-payments", "bulk-payments"];

impl Op {
    /// The operation of `method path` (path without its query).
    pub fn of(method: &str, path: &str, area: Area) -> Op {
        let method = method.to_ascii_uppercase();
        if area == Area::ScaPage {
            let mut parts = path.trim_start_matches("/sca/").split('/');
            let authorisation = parts.next().unwrap_or_default().to_owned();
            return Op::ScaPage {
                authorisation,
                step: parts.next().map(str::to_owned),
            };
        }
        let Some(rest) = path
            .strip_prefix(PLATFORM_PREFIX)
            .or_else(|| path.strip_prefix("/v1"))
        else {
            return Op::Other;
        };
        let parts: Vec<&str> = rest
            .trim_start_matches('/')
            .split('/')
            .filter(|p| !p.is_empty())
            .collect();
        let get = method == "GET";
        let post = method == "POST";
        let delete = method == "DELETE";
        let id = |i: usize| parts.get(i).map(|s| (*s).to_owned()).unwrap_or_default();
        match parts.as_slice() {
            ["sandbox", "sca", auth] if post => Op::ScaAutomation {
                authorisation: (*auth).to_owned(),
            },
            ["sandbox", ..] => Op::Sandbox,
            [kind @ ("accounts" | "card-accounts")] if get => Op::AccountList {
                card: *kind == "card-accounts",
            },
            [kind @ ("accounts" | "card-accounts"), _, tail @ ..] if get => {
                let part = match tail {
                    [] => AccountPart::Details,
                    ["balances"] => AccountPart::Balances,
                    ["transactions"] => AccountPart::Transactions,
                    ["transactions", _] => AccountPart::TransactionDetails,
                    _ => return Op::Other,
                };
                Op::Account {
                    id: id(1),
                    card: *kind == "card-accounts",
                    part,
                }
            }
            ["consents"] if post => Op::ConsentCreate { deprecated: true },
            ["bank-offered-consents"] if post => Op::ConsentCreate { deprecated: false },
            ["bank-offered-consents", ..] | ["consents", ..] if get => Op::ConsentRead,
            ["users" | "user"] => Op::UserLookup,
            ["agreements", ..] => Op::Agreements,
            [_, _, "fee-information"] => Op::FeeInformation,
            [service, product] if post && PAYMENT_SERVICES.contains(service) => Op::PaymentCreate {
                service: (*service).to_owned(),
                product: (*product).to_owned(),
            },
            [service, _, _, tail @ ..] if PAYMENT_SERVICES.contains(service) => match tail {
                [] if get => Op::PaymentRead {
                    id: id(2),
                    status: false,
                },
                ["status"] if get => Op::PaymentRead {
                    id: id(2),
                    status: true,
                },
                [] if delete => Op::PaymentDelete { id: id(2) },
                ["authorisations"] if post => Op::PaymentAuthorise { id: id(2) },
                ["authorisations", ..] if get => Op::PaymentAuthorisationRead { id: id(2) },
                _ => Op::Other,
            },
            ["signing-baskets"] if post => Op::BasketCreate,
            ["signing-baskets", _, tail @ ..] => match tail {
                [] if get => Op::BasketRead {
                    id: id(1),
                    status: false,
                },
                ["status"] if get => Op::BasketRead {
                    id: id(1),
                    status: true,
                },
                [] if delete => Op::BasketDelete { id: id(1) },
                ["authorisations"] if post => Op::BasketAuthorise { id: id(1) },
                ["authorisations", ..] if get => Op::BasketAuthorisationRead { id: id(1) },
                _ => Op::Other,
            },
            ["tpp-dialogue", ..] => Op::TppDialogue,
            _ => Op::Other,
        }
    }

    /// The bank's header sets B (every signing basket operation) and P (payment creation,
    /// docs/interface.md#payments): these need x-accept-fix, TPP-Session-ID, TPP-Redirect-URI and PSU-IP-Address.
    pub fn in_set_b_or_p(&self) -> bool {
        matches!(
            self,
            Op::PaymentCreate { .. }
                | Op::BasketCreate
                | Op::BasketRead { .. }
                | Op::BasketDelete { .. }
                | Op::BasketAuthorise { .. }
                | Op::BasketAuthorisationRead { .. }
        )
    }

    /// Account information calls (need PSP_AI).
    pub fn is_ais(&self) -> bool {
        matches!(
            self,
            Op::AccountList { .. }
                | Op::Account { .. }
                | Op::ConsentCreate { .. }
                | Op::ConsentRead
                | Op::Agreements
        )
    }

    /// Payment initiation calls (need PSP_PI).
    pub fn is_pis(&self) -> bool {
        matches!(
            self,
            Op::PaymentCreate { .. }
                | Op::FeeInformation
                | Op::PaymentRead { .. }
                | Op::PaymentDelete { .. }
                | Op::PaymentAuthorise { .. }
                | Op::PaymentAuthorisationRead { .. }
                | Op::BasketCreate
                | Op::BasketRead { .. }
                | Op::BasketDelete { .. }
                | Op::BasketAuthorise { .. }
                | Op::BasketAuthorisationRead { .. }
        )
    }

    /// The payment or basket a call reads or changes: `payment:<id>` / `basket:<id>`.
    pub fn payment_resource(&self) -> Option<String> {
        match self {
            Op::PaymentRead { id, .. }
            | Op::PaymentDelete { id }
            | Op::PaymentAuthorise { id }
            | Op::PaymentAuthorisationRead { id } => Some(format!("payment:{id}")),
            Op::BasketRead { id, .. }
            | Op::BasketDelete { id }
            | Op::BasketAuthorise { id }
            | Op::BasketAuthorisationRead { id } => Some(format!("basket:{id}")),
            _ => None,
        }
    }

    /// A read of a status: a payment's or basket's status or details, or an authorisation's.
    pub fn is_status_read(&self) -> bool {
        matches!(
            self,
            Op::PaymentRead { .. }
                | Op::BasketRead { .. }
                | Op::PaymentAuthorisationRead { .. }
                | Op::BasketAuthorisationRead { .. }
        )
    }

    /// The endpoint name the PSU-not-present limit counts (balances, transactions) with the account.
    pub fn unattended_endpoint(&self) -> Option<(&str, &'static str)> {
        match self {
            Op::Account {
                id,
                part: AccountPart::Balances,
                ..
            } => Some((id, "balances")),
            Op::Account {
                id,
                part: AccountPart::Transactions,
                ..
            } => Some((id, "transactions")),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bank(method: &str, path: &str) -> Op {
        Op::of(method, path, Area::of_path(path))
    }

    #[test]
    fn paths_name_their_operations_under_both_prefixes() {
        assert_eq!(
            bank(
                "POST",
                "/v1/payments/instant-norwegian-domestic-credit-transfers-straks"
            ),
            Op::PaymentCreate {
                service: "payments".into(),
                product: "instant-norwegian-domestic-credit-transfers-straks".into()
            }
        );
        assert_eq!(
            bank("GET", "/api-sandbox/v1/payments/p/x1/status"),
            Op::PaymentRead {
                id: "x1".into(),
                status: true
            }
        );
        assert_eq!(
            bank("GET", "/v1/accounts/a1/transactions"),
            Op::Account {
                id: "a1".into(),
                card: false,
                part: AccountPart::Transactions
            }
        );
        assert_eq!(
            bank("POST", "/v1/consents"),
            Op::ConsentCreate { deprecated: true }
        );
        assert_eq!(
            bank(
                "POST",
                "/v1/payments/instant-norwegian-credit-transfers-straks/fee-information"
            ),
            Op::FeeInformation
        );
        assert_eq!(
            bank("POST", "/v1/sandbox/sca/a9"),
            Op::ScaAutomation {
                authorisation: "a9".into()
            }
        );
        assert_eq!(bank("GET", "/v1/sandbox/customers"), Op::Sandbox);
        assert_eq!(
            bank("POST", "/sca/a9/identify"),
            Op::ScaPage {
                authorisation: "a9".into(),
                step: Some("identify".into())
            }
        );
        assert!(bank("DELETE", "/v1/signing-baskets/b1").in_set_b_or_p());
        assert!(!bank("GET", "/v1/payments/p/x1/status").in_set_b_or_p());
    }
}
