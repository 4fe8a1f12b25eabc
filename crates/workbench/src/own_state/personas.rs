//! TPP personas: a certificate and its key the composer signs with, plus what that TPP knows next (the
//! PSU's psu-id, the corporate id, its TPP-Session-ID). The bundled fixture TPPs are always offered; more
//! are issued in the app from the test CA (any roles, validity, organisation; deliberately expired, or from
//! a CA the sandbox does not trust) or imported as PEM.

use serde::{Deserialize, Serialize};
use time::{Duration, OffsetDateTime};
use xs2a_core::domain::refusal::{Code, CoreResult, Refusal};
use xs2a_core::signing::certificate::TppCertificate;
use xs2a_core::signing::issue::{tpp_request_defaults, CertificateAuthority};
use xs2a_core::signing::qc_statements::Psd2Role;
use xs2a_core::signing::signer::{pem_to_der, SigningCredentials};
use xs2a_core::signing::trust::{ChainVerdict, TrustStore};
use xs2a_core::store::Store;

pub use crate::stored_persona::{Source, StoredPersona};

/// A persona as the UI sees it: the certificate's facts and whether the sandbox would accept it now.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Persona {
    pub id: String,
    pub name: String,
    pub source: Source,
    pub roles: Vec<Psd2Role>,
    pub organisation_id: String,
    pub subject: String,
    pub issuer: String,
    pub serial: String,
    /// The certificate's SHA-256 fingerprint as `openssl x509 -noout -fingerprint -sha256` prints it (a
    /// recorded flow's `recordedBy` names its TPP by it).
    pub certificate_sha256: String,
    #[serde(with = "time::serde::rfc3339")]
    pub not_before: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub not_after: OffsetDateTime,
    /// `valid`, `expired`, `not-yet-valid`, `untrusted` or `no-roles`.
    #[schema(schema_with = status_schema)]
    pub status: &'static str,
    #[schema(required = true)]
    pub problem: Option<String>,
    #[schema(required = true)]
    pub psu_id: Option<String>,
    #[schema(required = true)]
    pub psu_corporate_id: Option<String>,
    #[schema(required = true)]
    pub tpp_session_id: Option<String>,
}

/// What `POST /workbench/api/personas` asks for.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct IssueRequest {
    pub name: String,
    pub roles: Vec<Psd2Role>,
    pub days: Option<i64>,
    pub organisation_id: Option<String>,
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub valid_from: Option<OffsetDateTime>,
    #[serde(default)]
    pub expired: bool,
    #[serde(default)]
    pub untrusted: bool,
}

/// A change to what a persona sends next; `Some(None)` clears a field.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersonaPatch {
    pub name: Option<String>,
    #[serde(default, deserialize_with = "nullable")]
    pub psu_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    pub psu_corporate_id: Option<Option<String>>,
    #[serde(default, deserialize_with = "nullable")]
    pub tpp_session_id: Option<Option<String>>,
}

/// Tells a field set to `null` (clear it) from a field left out (keep it).
fn nullable<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Ok(Some(Option::deserialize(d)?))
}

fn bundled_id(dir: &str) -> String {
    format!("bundled-{dir}")
}

/// Writes the bundled personas that are not stored yet (their psu-ids are then kept like any other's).
pub(crate) fn ensure_bundled(store: &Store) -> CoreResult<()> {
    let table = store.table::<StoredPersona>()?;
    for (dir, name, cert, key) in xs2a_core::signing::test_credentials::TPP_CERTIFICATES {
        if table.get(&bundled_id(dir))?.is_none() {
            table.insert_new(&StoredPersona {
                id: bundled_id(dir),
                name: (*name).to_owned(),
                source: Source::Bundled,
                certificate_pem: (*cert).to_owned(),
                private_key_pem: (*key).to_owned(),
                psu_id: None,
                psu_corporate_id: None,
                tpp_session_id: Some(uuid::Uuid::new_v4().to_string()),
            })?;
        }
    }
    Ok(())
}

/// The persona's facts, judged against the trust store at `now`.
pub fn view(
    stored: &StoredPersona,
    trust: &TrustStore,
    now: OffsetDateTime,
) -> CoreResult<Persona> {
    let der = pem_to_der(&stored.certificate_pem).map_err(Refusal::internal)?;
    let cert = TppCertificate::from_der(&der).map_err(|e| Refusal::internal(e.to_string()))?;
    let (status, problem) = if let ChainVerdict::Untrusted(why) = trust.check_chain(&der) {
        ("untrusted", Some(why))
    } else if now > cert.not_after {
        ("expired", cert.validity_problem(now))
    } else if now < cert.not_before {
        ("not-yet-valid", cert.validity_problem(now))
    } else if cert.roles().is_empty() {
        (
            "no-roles",
            Some("The certificate carries no PSD2 roles (no QCStatement).".to_owned()),
        )
    } else {
        ("valid", None)
    };
    Ok(Persona {
        id: stored.id.clone(),
        name: stored.name.clone(),
        source: stored.source,
        roles: cert.roles().to_vec(),
        organisation_id: cert.organization_identifier.clone().unwrap_or_default(),
        subject: cert.subject.to_rfc2253(),
        issuer: cert.issuer.to_rfc2253(),
        serial: cert.serial_hex.clone(),
        certificate_sha256: cert.sha256_fingerprint(),
        not_before: cert.not_before,
        not_after: cert.not_after,
        status,
        problem,
        psu_id: stored.psu_id.clone(),
        psu_corporate_id: stored.psu_corporate_id.clone(),
        tpp_session_id: stored.tpp_session_id.clone(),
    })
}

/// Every persona: the bundled ones first, then the others in the order they were made.
pub fn list(store: &Store, trust: &TrustStore, now: OffsetDateTime) -> CoreResult<Vec<Persona>> {
    ensure_bundled(store)?;
    let mut all = store.table::<StoredPersona>()?.list()?;
    all.sort_by_key(|p| (p.source != Source::Bundled, p.id.clone()));
    all.iter().map(|p| view(p, trust, now)).collect()
}

/// The stored persona with this id.
pub fn get(store: &Store, id: &str) -> CoreResult<StoredPersona> {
    ensure_bundled(store)?;
    store
        .table::<StoredPersona>()?
        .get(id)?
        .ok_or_else(|| Refusal::unknown("personaId", "persona", id))
}

/// The persona's signing credentials.
pub fn credentials(persona: &StoredPersona) -> CoreResult<SigningCredentials> {
    SigningCredentials::from_pem(&persona.certificate_pem, &persona.private_key_pem)
        .map_err(|e| Refusal::format("privateKeyPem", e))
}

fn new_id(prefix: &str) -> String {
    // Ordered by creation: a time-based prefix, then randomness.
    format!(
        "{prefix}-{:x}-{}",
        OffsetDateTime::now_utc().unix_timestamp_nanos(),
        &uuid::Uuid::new_v4().simple().to_string()[..8]
    )
}

/// Issues a persona's certificate from the test CA (or from a throw-away CA the sandbox does not trust).
pub fn issue(
    store: &Store,
    request: IssueRequest,
    now: OffsetDateTime,
) -> CoreResult<StoredPersona> {
    let name = request.name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return Err(Refusal::format("name", "name must be 1 to 64 characters"));
    }
    let mut tpp = tpp_request_defaults(name, request.roles.clone(), now);
    if let Some(org) = &request.organisation_id {
        if org.trim().is_empty() || !org.is_ascii() {
            return Err(Refusal::format(
                "organisationId",
                "organisationId must be ASCII, e.g. PSDNO-FSA-123456",
            ));
        }
        tpp.organization_identifier = org.trim().to_owned();
    }
    let days = request.days.unwrap_or(730);
    if !(1..=3650).contains(&days) {
        return Err(Refusal::format("days", "days must be from 1 to 3650"));
    }
    tpp.not_before = request.valid_from.unwrap_or(now - Duration::days(1));
    tpp.not_after = tpp.not_before + Duration::days(days);
    if request.expired {
        tpp.not_before = now - Duration::days(days + 1);
        tpp.not_after = now - Duration::days(1);
    }
    let authority = if request.untrusted {
        CertificateAuthority::generate(
            "Untrusted Workbench CA",
            "",
            now - Duration::days(3650),
            now + Duration::days(3650),
        )
        .map_err(Refusal::internal)?
    } else {
        CertificateAuthority::bundled_test_ca()
    };
    let issued = if request.roles.is_empty() {
        authority.issue_tpp_without_psd2(&tpp)
    } else {
        authority.issue_tpp(&tpp)
    }
    .map_err(Refusal::internal)?;
    let persona = StoredPersona {
        id: new_id("issued"),
        name: name.to_owned(),
        source: Source::Issued,
        certificate_pem: issued.cert_pem,
        private_key_pem: issued.key_pem,
        psu_id: None,
        psu_corporate_id: None,
        tpp_session_id: Some(uuid::Uuid::new_v4().to_string()),
    };
    store.table::<StoredPersona>()?.insert(&persona)?;
    Ok(persona)
}

/// Stores an imported certificate and key after checking that they belong together.
pub fn import(
    store: &Store,
    name: &str,
    certificate_pem: &str,
    private_key_pem: &str,
) -> CoreResult<StoredPersona> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 64 {
        return Err(Refusal::format("name", "name must be 1 to 64 characters"));
    }
    let der = pem_to_der(certificate_pem).map_err(|e| Refusal::format("certificatePem", e))?;
    TppCertificate::from_der(&der).map_err(|e| Refusal::format("certificatePem", e.to_string()))?;
    let credentials = SigningCredentials::from_pem(certificate_pem, private_key_pem)
        .map_err(|e| Refusal::format("privateKeyPem", e))?;
    // A key that does not belong to the certificate would sign requests no gate can verify.
    if !credentials.key_matches_certificate() {
        return Err(Refusal::format(
            "privateKeyPem",
            "the private key does not belong to the certificate",
        ));
    }
    let persona = StoredPersona {
        id: new_id("imported"),
        name: name.to_owned(),
        source: Source::Imported,
        certificate_pem: certificate_pem.to_owned(),
        private_key_pem: private_key_pem.to_owned(),
        psu_id: None,
        psu_corporate_id: None,
        tpp_session_id: Some(uuid::Uuid::new_v4().to_string()),
    };
    store.table::<StoredPersona>()?.insert(&persona)?;
    Ok(persona)
}

/// Changes a persona's name or what it sends next.
pub fn patch(store: &Store, id: &str, patch: PersonaPatch) -> CoreResult<StoredPersona> {
    let mut persona = get(store, id)?;
    if let Some(name) = patch.name {
        let name = name.trim();
        if name.is_empty() || name.chars().count() > 64 {
            return Err(Refusal::format("name", "name must be 1 to 64 characters"));
        }
        persona.name = name.to_owned();
    }
    let clean = |v: Option<String>| v.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty());
    if let Some(psu_id) = patch.psu_id {
        persona.psu_id = clean(psu_id);
    }
    if let Some(corporate) = patch.psu_corporate_id {
        persona.psu_corporate_id = clean(corporate);
    }
    if let Some(session) = patch.tpp_session_id {
        persona.tpp_session_id = clean(session);
    }
    store.table::<StoredPersona>()?.insert(&persona)?;
    Ok(persona)
}

/// Removes an issued or imported persona (the bundled ones stay: 409).
pub fn delete(store: &Store, id: &str) -> CoreResult<()> {
    let persona = get(store, id)?;
    if persona.source == Source::Bundled {
        return Err(Refusal::new(
            Code::Conflict,
            Some("personaId"),
            "The bundled personas cannot be deleted.",
        ));
    }
    store.table::<StoredPersona>()?.remove(id)?;
    Ok(())
}

/// The OpenAPI schema of `Persona.status`: one of a fixed set of words.
fn status_schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(serde_json::json!({"type": "string", "enum": ["valid", "expired", "not-yet-valid", "untrusted", "no-roles"]}))
        .expect("a valid schema")
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    const NOW: OffsetDateTime = datetime!(2026-06-01 12:00 UTC);

    fn request(name: &str) -> IssueRequest {
        IssueRequest {
            name: name.into(),
            roles: vec![Psd2Role::PspAi],
            days: None,
            organisation_id: None,
            valid_from: None,
            expired: false,
            untrusted: false,
        }
    }

    #[test]
    fn the_bundled_personas_are_offered_with_their_verdicts() {
        let store = Store::temporary().unwrap();
        let trust = TrustStore::with_bundled_test_ca();
        let all = list(&store, &trust, NOW).unwrap();
        let status = |id: &str| all.iter().find(|p| p.id == id).unwrap().status;
        assert_eq!(status("bundled-aisp-pisp"), "valid");
        assert_eq!(status("bundled-expired"), "expired");
        assert_eq!(status("bundled-untrusted"), "untrusted");
        assert_eq!(status("bundled-no-roles"), "no-roles");
    }

    #[test]
    fn issued_personas_carry_what_was_asked_for() {
        let store = Store::temporary().unwrap();
        let trust = TrustStore::with_bundled_test_ca();
        let mut ask = request("Acme TPP");
        ask.organisation_id = Some("PSDNO-FSA-ACME01".into());
        let acme = view(&issue(&store, ask, NOW).unwrap(), &trust, NOW).unwrap();
        assert_eq!(acme.status, "valid");
        assert_eq!(acme.organisation_id, "PSDNO-FSA-ACME01");
        assert_eq!(acme.roles, [Psd2Role::PspAi]);
        let mut ask = request("Old TPP");
        ask.expired = true;
        assert_eq!(
            view(&issue(&store, ask, NOW).unwrap(), &trust, NOW)
                .unwrap()
                .status,
            "expired"
        );
        let mut ask = request("Rogue TPP");
        ask.untrusted = true;
        assert_eq!(
            view(&issue(&store, ask, NOW).unwrap(), &trust, NOW)
                .unwrap()
                .status,
            "untrusted"
        );
    }

    #[test]
    fn a_patch_sets_and_clears_what_the_persona_sends_and_bundled_ones_stay() {
        let store = Store::temporary().unwrap();
        let patched = patch(
            &store,
            "bundled-aisp",
            PersonaPatch {
                psu_id: Some(Some("abc".into())),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(patched.psu_id.as_deref(), Some("abc"));
        let cleared = patch(
            &store,
            "bundled-aisp",
            PersonaPatch {
                psu_id: Some(None),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(cleared.psu_id, None);
        assert_eq!(
            delete(&store, "bundled-aisp").unwrap_err().code,
            Code::Conflict
        );
    }

    #[test]
    fn an_imported_key_must_belong_to_the_certificate() {
        let store = Store::temporary().unwrap();
        let (_, _, cert, _) = xs2a_core::signing::test_credentials::TPP_CERTIFICATES[0];
        let (_, _, _, other_key) = xs2a_core::signing::test_credentials::TPP_CERTIFICATES[1];
        let refused = import(&store, "Mixed", cert, other_key).unwrap_err();
        assert_eq!(refused.path.as_deref(), Some("privateKeyPem"));
    }
}
