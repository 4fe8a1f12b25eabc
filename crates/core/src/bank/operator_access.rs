//! Who may use the bank-side controls of `/v1/sandbox`
//! (docs/reference/access.md#who-may-do-what-one-developer-or-a-shared-sandbox): in loopback mode (one
//! developer's machine) every signed TPP; in shared mode only a request that also presents the operator
//! token. The mock-data API stays open to signed TPPs in both modes, as the bank's platform offers it.

use crate::bank::state::{AccessMode, Settings};
use crate::domain::refusal::{CoreResult, Refusal};

/// Compares without stopping at the first difference, so the time taken says nothing about the token.
pub fn same_token(presented: &str, expected: &str) -> bool {
    presented.len() == expected.len()
        && presented
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Admits the control `method path` with the operator token `presented` (if any), or refuses it with 403
/// FORBIDDEN naming the credential.
pub fn admit_control(
    settings: &Settings,
    presented: Option<&str>,
    method: &str,
    path: &str,
) -> CoreResult<()> {
    if settings.access == AccessMode::Loopback
        || presented.is_some_and(|t| same_token(t, &settings.operator_token))
    {
        return Ok(());
    }
    Err(Refusal::forbidden(format!(
        "{method} {path} is a bank-side control: this sandbox runs in shared mode, where controls need the operator \
         credential (Authorization: Bearer <token>, the token xs2a-sandbox serve printed). The mock-data \
         endpoints (customers, accounts, card accounts, transactions, agreements) stay open."
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::refusal::Code;

    fn settings(access: AccessMode) -> Settings {
        Settings {
            access,
            operator_token: "secret".into(),
            ..Settings::default()
        }
    }

    #[test]
    fn shared_mode_admits_a_control_only_with_the_operator_token() {
        let shared = settings(AccessMode::Shared);
        let refused = admit_control(&shared, None, "POST", "/v1/sandbox/clock").unwrap_err();
        assert_eq!((refused.status(), refused.code), (403, Code::Forbidden));
        assert!(refused
            .text
            .starts_with("POST /v1/sandbox/clock is a bank-side control"));
        assert!(admit_control(&shared, Some("secreT"), "POST", "/x").is_err());
        assert!(admit_control(&shared, Some("secret"), "POST", "/x").is_ok());
        assert!(admit_control(&settings(AccessMode::Loopback), None, "POST", "/x").is_ok());
        assert!(same_token("abc", "abc") && !same_token("abc", "abd") && !same_token("ab", "abc"));
    }
}
