//! A simulated central register (docs/rehearsal.md#the-central-register: the bank checks the TPP's
//! registration against the central registries on each request): every TPP the gate identifies is noted (by
//! organisation identifier, with its certificate's roles, first and last seen); the operator can mark one
//! unregistered, withdraw a role, or revoke its certificate at the NCA, and the next request gets the refusal
//! production gives. Consulted in both profiles: the register only refuses what the operator set, so the sandbox
//! profile is unchanged until then (docs/rehearsal.md).

use crate::domain::refusal::{Code, CoreResult, Refusal};
use crate::signing::qc_statements::Psd2Role;
use crate::store::{Record, Store};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;
use time::{Duration, OffsetDateTime};

/// How long a `lastSeen` may lag before it is written again (one write a minute per TPP at most, not one
/// per request).
const LAST_SEEN_STEP: Duration = Duration::minutes(1);

/// One TPP as the register knows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisteredTpp {
    /// The certificate's organizationIdentifier (or its SHA-256 when it has none).
    pub organisation_id: String,
    pub name: String,
    /// The roles of the certificate last seen.
    pub roles: Vec<Psd2Role>,
    /// The certificate's serial (hex), as last seen.
    pub serial: String,
    #[serde(with = "time::serde::rfc3339")]
    pub first_seen: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub last_seen: OffsetDateTime,
    /// `false`: the operator marked it unregistered (401 CERTIFICATE_BLOCKED).
    pub registered: bool,
    /// Roles the NCA withdrew (401 ROLE_INVALID on the services that need them).
    #[serde(default)]
    pub withdrawn_roles: Vec<Psd2Role>,
    /// The serials the NCA revoked (401 CERTIFICATE_REVOKED while the TPP signs with one).
    #[serde(default)]
    pub revoked_serials: Vec<String>,
}

impl Record for RegisteredTpp {
    const TREE: &'static str = "central-register";
    fn key(&self) -> String {
        self.organisation_id.clone()
    }
}

/// A request's TPP as the gate identified it.
#[derive(Debug, Clone, Copy)]
pub struct Presented<'a> {
    pub organisation_id: &'a str,
    pub name: &'a str,
    pub roles: &'a [Psd2Role],
    pub serial: &'a str,
}

/// What the operator changes.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RegisterChange {
    pub registered: Option<bool>,
    pub withdrawn_roles: Option<Vec<Psd2Role>>,
    /// `true` revokes the certificate last seen; `false` lifts every revocation.
    pub certificate_revoked: Option<bool>,
}

/// The register as the service holds it: the stored entries, cached.
#[derive(Debug, Default)]
pub struct Register {
    entries: Mutex<Option<HashMap<String, RegisteredTpp>>>,
}

/// The role a path's service needs, if any.
pub fn role_needed(path: &str) -> Option<Psd2Role> {
    let rest = path
        .strip_prefix("/api-sandbox")
        .unwrap_or(path)
        .strip_prefix("/v1/")?;
    let first = rest.split('/').next().unwrap_or_default();
    match first {
        "accounts" | "card-accounts" | "consents" | "bank-offered-consents" => {
            Some(Psd2Role::PspAi)
        }
        "payments" | "periodic-payments" | "bulk-payments" | "signing-baskets" => {
            Some(Psd2Role::PspPi)
        }
        _ => None,
    }
}

impl Register {
    fn with<T>(
        &self,
        store: &Store,
        f: impl FnOnce(&mut HashMap<String, RegisteredTpp>) -> CoreResult<T>,
    ) -> CoreResult<T> {
        let mut held = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        if held.is_none() {
            let list = store.table::<RegisteredTpp>()?.list()?;
            *held = Some(
                list.into_iter()
                    .map(|e| (e.organisation_id.clone(), e))
                    .collect(),
            );
        }
        f(held.as_mut().expect("loaded"))
    }

    /// Forgets the cache (after an import, the store is the truth again).
    pub fn reload(&self) {
        *self.entries.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    /// Notes a request's TPP and answers what the register says of it: nothing, or production's refusal.
    pub fn check(
        &self,
        store: &Store,
        tpp: &Presented,
        path: &str,
        now: OffsetDateTime,
    ) -> CoreResult<()> {
        self.with(store, |entries| {
            let entry = match entries.get(tpp.organisation_id) {
                Some(known) => {
                    let changed = known.roles != tpp.roles
                        || known.serial != tpp.serial
                        || now - known.last_seen >= LAST_SEEN_STEP;
                    if !changed {
                        return verdict(known, tpp.serial, path);
                    }
                    let mut updated = known.clone();
                    updated.roles = tpp.roles.to_vec();
                    updated.serial = tpp.serial.to_owned();
                    updated.name = tpp.name.to_owned();
                    updated.last_seen = now;
                    updated
                }
                None => RegisteredTpp {
                    organisation_id: tpp.organisation_id.to_owned(),
                    name: tpp.name.to_owned(),
                    roles: tpp.roles.to_vec(),
                    serial: tpp.serial.to_owned(),
                    first_seen: now,
                    last_seen: now,
                    registered: true,
                    withdrawn_roles: Vec::new(),
                    revoked_serials: Vec::new(),
                },
            };
            store.table::<RegisteredTpp>()?.insert(&entry)?;
            let outcome = verdict(&entry, tpp.serial, path);
            entries.insert(entry.organisation_id.clone(), entry);
            outcome
        })
    }

    /// Every TPP seen, by organisation identifier.
    pub fn list(&self, store: &Store) -> CoreResult<Vec<RegisteredTpp>> {
        self.with(store, |entries| {
            let mut list: Vec<_> = entries.values().cloned().collect();
            list.sort_by(|a, b| a.organisation_id.cmp(&b.organisation_id));
            Ok(list)
        })
    }

    /// The operator's change to one TPP, stored before it applies.
    pub fn change(
        &self,
        store: &Store,
        organisation_id: &str,
        change: RegisterChange,
    ) -> CoreResult<RegisteredTpp> {
        self.with(store, |entries| {
            let entry = entries.get(organisation_id).ok_or_else(|| {
                Refusal::unknown("organisationId", "TPP in the register", organisation_id)
            })?;
            let mut updated = entry.clone();
            if let Some(registered) = change.registered {
                updated.registered = registered;
            }
            if let Some(roles) = change.withdrawn_roles {
                updated.withdrawn_roles = roles;
            }
            match change.certificate_revoked {
                Some(true) if !updated.revoked_serials.contains(&updated.serial) => {
                    updated.revoked_serials.push(updated.serial.clone())
                }
                Some(false) => updated.revoked_serials.clear(),
                _ => {}
            }
            store.table::<RegisteredTpp>()?.insert(&updated)?;
            entries.insert(updated.organisation_id.clone(), updated.clone());
            Ok(updated)
        })
    }
}

/// The refusal production gives for what the register says, checked in this order: the certificate
/// revoked, the TPP unregistered, the service's role withdrawn. Berlin Group 1.3 answers each with 401.
fn verdict(entry: &RegisteredTpp, serial: &str, path: &str) -> CoreResult<()> {
    if entry.revoked_serials.iter().any(|s| s == serial) {
        return Err(Refusal::new(
            Code::CertificateRevoked,
            Some("TPP-Signature-Certificate"),
            format!(
                "The certificate (serial {serial}) was revoked at the NCA (the sandbox's central register, set by its operator)."
            ),
        ));
    }
    if !entry.registered {
        return Err(Refusal::new(
            Code::CertificateBlocked,
            Some("TPP-Signature-Certificate"),
            format!(
                "{} is not registered with the NCA (the sandbox's central register, set by its operator).",
                entry.organisation_id
            ),
        ));
    }
    if let Some(role) = role_needed(path).filter(|r| entry.withdrawn_roles.contains(r)) {
        return Err(Refusal::new(
            Code::RoleInvalid,
            Some("TPP-Signature-Certificate"),
            format!(
                "The NCA withdrew the role {} from {} (the sandbox's central register, set by its operator); this service needs it.",
                role.as_str(),
                entry.organisation_id
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_by_service() {
        assert_eq!(role_needed("/v1/accounts/1"), Some(Psd2Role::PspAi));
        assert_eq!(
            role_needed("/api-sandbox/v1/payments/x"),
            Some(Psd2Role::PspPi)
        );
        assert_eq!(role_needed("/v1/signing-baskets"), Some(Psd2Role::PspPi));
        assert_eq!(role_needed("/v1/sandbox/customers"), None);
    }
}
