//! SCA without a browser (docs/reference/ais-sca.md#the-psus-sca-without-a-browser): every remaining step of an authorisation
//! taken the way the PSU would on the bank's pages, with the same engine, so the result is the same. Only
//! the TPP that started an authorisation may drive it: to any other TPP it does not exist (404
//! SCA_NOT_FOUND). The body's choices are checked before any step is taken, so a typo changes nothing.
//! It sits above `sca` and `after_sca`, which it drives.

use crate::bank::sca::authorisation::{AuthMethod, Authorisation, Step};
use crate::bank::sca::engine::{self, StepError};
use crate::bank::sca::Context;
use crate::bank::state::BankState;
use crate::domain::refusal::{CoreResult, Refusal};
use serde::Deserialize;

/// What the PSU would do on the pages. Every field is optional: steps already taken or preset by the
/// triggering request are skipped.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DriveRequest {
    /// Needed at the identify step (else the X-PSU-IDENTITY preset is used).
    pub national_id: Option<String>,
    /// Default HA2, or ENGANGSKODEAPP_BIOMETRI when the TPP asked for the biometric variant.
    pub method: Option<String>,
    /// Default CORPORATE when agreementId is given, else PRIVATE.
    pub context: Option<String>,
    pub agreement_id: Option<String>,
    /// Account and card account ids to grant; default: every account offered.
    pub accounts: Option<Vec<String>>,
    /// success (default), cancel or failure.
    pub outcome: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Success,
    Cancel,
    Failure,
}

/// The body's choices, checked.
struct Plan {
    wanted: Wanted,
    method: Option<AuthMethod>,
    context: Option<Context>,
}

/// 400 FORMAT_ERROR at the first choice that is not one the pages offer.
fn plan(request: &DriveRequest) -> CoreResult<Plan> {
    let wanted = match request
        .outcome
        .as_deref()
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        None | Some("success") => Wanted::Success,
        Some("cancel") => Wanted::Cancel,
        Some("failure") => Wanted::Failure,
        Some(other) => {
            return Err(Refusal::format(
                "outcome",
                format!("outcome '{other}' is not one of success, cancel, failure"),
            ))
        }
    };
    let method = match &request.method {
        None => None,
        Some(text) => Some(AuthMethod::parse(text).ok_or_else(|| {
            let known: Vec<&str> = AuthMethod::ALL.iter().map(|m| m.as_str()).collect();
            Refusal::format(
                "method",
                format!("method '{text}' is not one of {}", known.join(", ")),
            )
        })?),
    };
    let context = match &request.context {
        None => None,
        Some(text) => Some(
            Context::parse(&text.trim().to_ascii_uppercase()).ok_or_else(|| {
                Refusal::format(
                    "context",
                    format!("context '{text}' is not PRIVATE or CORPORATE"),
                )
            })?,
        ),
    };
    if context == Some(Context::Private) && request.agreement_id.is_some() {
        return Err(Refusal::format(
            "agreementId",
            "agreementId goes with context CORPORATE; leave it out for PRIVATE",
        ));
    }
    Ok(Plan {
        wanted,
        method,
        context,
    })
}

/// A refused step, naming the body field at fault.
fn refused(error: StepError) -> Refusal {
    let path = match &error {
        StepError::InvalidNationalId(_) | StepError::UnknownPerson => Some("nationalId"),
        StepError::NoAgreements | StepError::UnknownAgreement => Some("agreementId"),
        StepError::UnknownAccount(_) => Some("accounts"),
        _ => None,
    };
    let mut refusal = error.to_refusal();
    refusal.path = path.map(str::to_owned);
    refusal
}

/// The authorisation `id`, if the TPP `tpp_id` started it; another TPP's authorisation is not found.
pub fn own(bank: &BankState, tpp_id: &str, id: &str) -> CoreResult<Authorisation> {
    let auth = engine::load(&bank.store, id).map_err(refused)?;
    if auth.tpp_id != tpp_id {
        return Err(refused(StepError::NotFound));
    }
    Ok(auth)
}

/// Takes every remaining step of the TPP's authorisation `id` with the choices of `request` (or cancels or
/// fails it), and what follows a completed payment SCA; the finished authorisation.
pub fn drive(
    bank: &BankState,
    tpp_id: &str,
    id: &str,
    request: &DriveRequest,
) -> CoreResult<Authorisation> {
    let plan = plan(request)?;
    let store = &bank.store;
    let now = bank.clock.now();
    let mut auth = own(bank, tpp_id, id)?;
    if auth.outcome.is_some() {
        return Err(refused(StepError::AlreadyFinished));
    }
    Ok(match plan.wanted {
        Wanted::Cancel => engine::cancel(store, id, now).map_err(refused)?,
        Wanted::Failure => engine::fail(store, id, now).map_err(refused)?,
        Wanted::Success => {
            while auth.outcome.is_none() {
                auth = step(bank, &auth, request, &plan)?;
            }
            crate::bank::after_sca::after_sca(bank, &auth);
            auth
        }
    })
}

/// Takes the one step the authorisation is at.
fn step(
    bank: &BankState,
    auth: &Authorisation,
    request: &DriveRequest,
    plan: &Plan,
) -> CoreResult<Authorisation> {
    let store = &bank.store;
    let now = bank.clock.now();
    let id = auth.id.as_str();
    let result = match auth.step() {
        Step::Identify => {
            let national_id = request
                .national_id
                .as_deref()
                .or(auth.preset_identity.as_deref())
                .ok_or_else(|| {
                    Refusal::format(
                        "nationalId",
                        "the authorisation is at the identify step: give the PSU's nationalId (the request had no usable X-PSU-IDENTITY)",
                    )
                })?;
            engine::identify(store, id, national_id, now)
        }
        Step::Method => {
            let default = if auth.biometric_in_app {
                AuthMethod::EngangskodeappBiometri
            } else {
                AuthMethod::Ha2
            };
            engine::choose_method(store, id, plan.method.unwrap_or(default), now)
        }
        Step::Context => {
            let context = plan.context.unwrap_or(match request.agreement_id {
                Some(_) => Context::Corporate,
                None => Context::Private,
            });
            engine::choose_context(store, id, context, request.agreement_id.as_deref(), now)
        }
        Step::Consent => {
            let ticked = match &request.accounts {
                Some(accounts) => accounts.clone(),
                None => engine::consent_choices(store, auth)?
                    .into_iter()
                    .map(|c| c.id)
                    .collect(),
            };
            engine::grant(store, id, &ticked, now)
        }
        Step::Confirm => engine::confirm(store, id, now),
        Step::Finished => return Ok(auth.clone()),
    };
    result.map_err(refused)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::refusal::Code;

    fn refused_at(request: DriveRequest) -> Option<String> {
        let refusal = plan(&request).err().expect("refused");
        assert_eq!((refusal.code, refusal.status()), (Code::FormatError, 400));
        refusal.path
    }

    #[test]
    fn sca_automation_checks_the_body_before_any_step() {
        let bad = DriveRequest {
            outcome: Some("maybe".into()),
            ..DriveRequest::default()
        };
        assert_eq!(refused_at(bad).as_deref(), Some("outcome"));
        let bad = DriveRequest {
            method: Some("PIGEON".into()),
            ..DriveRequest::default()
        };
        assert_eq!(refused_at(bad).as_deref(), Some("method"));
        let bad = DriveRequest {
            context: Some("public".into()),
            ..DriveRequest::default()
        };
        assert_eq!(refused_at(bad).as_deref(), Some("context"));
        let mixed = DriveRequest {
            context: Some("private".into()),
            agreement_id: Some("a".into()),
            ..DriveRequest::default()
        };
        assert_eq!(refused_at(mixed).as_deref(), Some("agreementId"));
        let fine = DriveRequest {
            outcome: Some("Cancel".into()),
            method: Some("HA2".into()),
            context: Some("corporate".into()),
            agreement_id: Some("a".into()),
            ..DriveRequest::default()
        };
        assert!(plan(&fine).is_ok());
    }

    #[test]
    fn a_refused_step_names_the_body_field_at_fault() {
        assert_eq!(
            refused(StepError::UnknownPerson).path.as_deref(),
            Some("nationalId")
        );
        assert_eq!(
            refused(StepError::UnknownAgreement).path.as_deref(),
            Some("agreementId")
        );
        assert_eq!(
            refused(StepError::UnknownAccount("x".into()))
                .path
                .as_deref(),
            Some("accounts")
        );
        assert_eq!(refused(StepError::NotFound).code, Code::ScaNotFound);
    }
}
