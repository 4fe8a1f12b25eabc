//! Who may use the workbench (docs/workbench-api.md): this machine only, from the workbench's own
//! origins, and for the API with the operator credential. The HTTP crate decides who is asking; these are
//! its refusals.

use xs2a_core::domain::refusal::{Code, Refusal};

/// 403 FORBIDDEN for a request from elsewhere: `what` ("The workbench", "The workbench API") is reachable
/// only `where_from` (from this machine, or through a container's published port).
pub fn not_from_here(what: &str, where_from: &str) -> Refusal {
    Refusal::forbidden(format!("{what} is reachable {where_from}."))
}

/// 403 FORBIDDEN for a page of another origin calling the workbench API.
pub fn foreign_origin() -> Refusal {
    Refusal::forbidden("This origin may not use the workbench API.")
}

/// FORBIDDEN at `Authorization` for a workbench API request without the operator credential; answered
/// with 401, the status that asks for a credential.
pub fn operator_credential_needed() -> Refusal {
    Refusal::new(
        Code::Forbidden,
        Some("Authorization"),
        "The workbench API needs the operator credential: Authorization: Bearer <token>, the token \
         printed by `xs2a-sandbox serve` in the workbench URL.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_strangers_with_forbidden() {
        let elsewhere = not_from_here("The workbench", "only from this machine (loopback)");
        assert_eq!((elsewhere.status(), elsewhere.code), (403, Code::Forbidden));
        assert_eq!(
            elsewhere.text,
            "The workbench is reachable only from this machine (loopback)."
        );
        assert_eq!(foreign_origin().status(), 403);
        let credential = operator_credential_needed();
        assert_eq!(credential.code, Code::Forbidden);
        assert_eq!(credential.path.as_deref(), Some("Authorization"));
    }
}
