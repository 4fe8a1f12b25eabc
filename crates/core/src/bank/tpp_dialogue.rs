//! The TPP dialogue (docs/reference/clock-and-service.md): a TPP, identified by its certificate, may register one
//! contact e-mail address for technical and operational notices. Registration is optional. Role addresses are
//! recommended, so an address that looks personal is accepted with a warning.

use crate::domain::refusal::{Code, Refusal, TppMessage};
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// A registered contact address.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TppContact {
    /// The TPP's identity: its organizationIdentifier, or the certificate's SHA-256 when it has none.
    pub tpp_id: String,
    pub email: String,
    #[serde(with = "time::serde::rfc3339")]
    pub registered_at: OffsetDateTime,
}

impl Record for TppContact {
    const TREE: &'static str = "tpp-contacts";
    fn key(&self) -> String {
        self.tpp_id.clone()
    }
}

/// Local parts that name a function rather than a person.
const ROLE_LOCAL_PARTS: &[&str] = &[
    "admin",
    "api",
    "apisupport",
    "contact",
    "developer",
    "developers",
    "devops",
    "drift",
    "helpdesk",
    "info",
    "it",
    "kundeservice",
    "noc",
    "operations",
    "ops",
    "post",
    "postmottak",
    "psd2",
    "security",
    "service",
    "servicedesk",
    "support",
    "tech",
    "teknisk",
];

/// Mail services whose addresses belong to people, not organisations.
const PERSONAL_DOMAINS: &[&str] = &[
    "gmail.com",
    "googlemail.com",
    "hotmail.com",
    "outlook.com",
    "live.com",
    "yahoo.com",
    "icloud.com",
    "me.com",
    "online.no",
    "live.no",
    "hotmail.no",
    "yahoo.no",
    "proton.me",
    "protonmail.com",
];

/// Checks an address's form; returns it trimmed, or a sentence saying what is wrong.
pub fn validate_email(address: &str) -> Result<String, String> {
    let address = address.trim();
    if address.is_empty() || address.len() > 254 {
        return Err("email must be 1 to 254 characters".into());
    }
    let (local, domain) = address
        .rsplit_once('@')
        .ok_or_else(|| format!("'{address}' is not an e-mail address: it has no '@'"))?;
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    if !local_ok {
        return Err(format!(
            "the part before '@' in '{address}' is not a valid mailbox name"
        ));
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    if !domain_ok {
        return Err(format!(
            "'{domain}' is not a valid mail domain (like tpp.example.com)"
        ));
    }
    Ok(address.to_owned())
}

/// Why an address looks personal, if it does.
pub fn personal_hint(address: &str) -> Option<String> {
    let (local, domain) = address.rsplit_once('@')?;
    let local = local.to_ascii_lowercase();
    let domain = domain.to_ascii_lowercase();
    if PERSONAL_DOMAINS.contains(&domain.as_str()) {
        return Some(format!("{domain} is a personal mail service"));
    }
    let base = local.split('+').next().unwrap_or(&local);
    // "it.support", "ops-team", "drift_psd2": any part naming a function makes it a role address.
    if base
        .split(['.', '_', '-'])
        .any(|part| ROLE_LOCAL_PARTS.contains(&part))
    {
        return None;
    }
    let looks_like_a_name = base
        .split(['.', '_'])
        .filter(|p| !p.is_empty())
        .all(|p| p.chars().all(|c| c.is_ascii_alphabetic()))
        && base.contains(['.', '_']);
    looks_like_a_name.then(|| format!("'{local}' looks like a person's name"))
}

/// Registers (or replaces) the TPP's contact address. Returns it with any warning.
pub fn register(
    store: &Store,
    tpp_id: &str,
    email: &str,
    now: OffsetDateTime,
) -> Result<(TppContact, Vec<TppMessage>), Refusal> {
    let email = validate_email(email).map_err(|reason| Refusal::format("email", reason))?;
    let warnings = personal_hint(&email)
        .map(|why| {
            TppMessage::warning(
                Code::FormatError,
                Some("email"),
                format!(
                    "Registered, but {why}. Notices should reach a team, not one person: a role address such as \
                     psd2-ops@your-company.example is recommended."
                ),
            )
        })
        .into_iter()
        .collect();
    let contact = TppContact {
        tpp_id: tpp_id.to_owned(),
        email,
        registered_at: now,
    };
    store.table::<TppContact>()?.insert(&contact)?;
    Ok((contact, warnings))
}

/// The TPP's registered address.
pub fn get(store: &Store, tpp_id: &str) -> Result<TppContact, Refusal> {
    store
        .table::<TppContact>()?
        .get(tpp_id)?
        .ok_or_else(not_registered)
}

/// Removes the TPP's registered address.
pub fn remove(store: &Store, tpp_id: &str) -> Result<(), Refusal> {
    store
        .table::<TppContact>()?
        .remove(tpp_id)?
        .map(|_| ())
        .ok_or_else(not_registered)
}

fn not_registered() -> Refusal {
    Refusal::new(
        Code::ResourceUnknown,
        None,
        "This TPP has no contact e-mail address registered (registration is optional).",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_addresses_pass_and_others_say_why() {
        assert_eq!(
            validate_email(" psd2-ops@tpp.example.com ").unwrap(),
            "psd2-ops@tpp.example.com"
        );
        for bad in [
            "",
            "no-at.example.com",
            "a@b",
            "a@-b.com",
            "a..b@x.no",
            "a b@x.no",
            "x@tpp.c0m",
        ] {
            assert!(validate_email(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn role_addresses_are_not_personal_but_names_and_webmail_are() {
        assert_eq!(personal_hint("support@tpp.no"), None);
        assert_eq!(personal_hint("psd2@tpp.no"), None);
        assert_eq!(personal_hint("it.support@tpp.no"), None);
        assert_eq!(personal_hint("ops-team@tpp.no"), None);
        assert!(personal_hint("kari.nordmann@tpp.no").is_some());
        assert!(personal_hint("ops@gmail.com").is_some());
    }

    #[test]
    fn register_replace_read_and_remove() {
        let store = Store::temporary().unwrap();
        let now = OffsetDateTime::UNIX_EPOCH;
        let (_, warnings) = register(&store, "PSDNO-FSA-1", "kari.nordmann@tpp.no", now).unwrap();
        assert_eq!(warnings.len(), 1);
        let (_, warnings) = register(&store, "PSDNO-FSA-1", "ops@tpp.no", now).unwrap();
        assert!(warnings.is_empty());
        assert_eq!(get(&store, "PSDNO-FSA-1").unwrap().email, "ops@tpp.no");
        remove(&store, "PSDNO-FSA-1").unwrap();
        assert_eq!(
            get(&store, "PSDNO-FSA-1").unwrap_err().code,
            Code::ResourceUnknown
        );
        assert_eq!(
            register(&store, "x", "bad", now)
                .unwrap_err()
                .path
                .as_deref(),
            Some("email")
        );
    }
}
