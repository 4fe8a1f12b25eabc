//! Why a step of an authorisation was not taken: shown on the bank's pages, or answered by the automation
//! endpoint as a refusal (`to_refusal`).

use super::authorisation::Step;
use crate::domain::refusal::{Code, Refusal};

/// Why a step was not taken; shown on the page, or returned by the automation endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    NotFound,
    Expired,
    AlreadyFinished,
    /// The step does not fit where the PSU is (e.g. a consent before identification).
    WrongStep(Step),
    InvalidNationalId(String),
    UnknownPerson,
    NoAgreements,
    UnknownAgreement,
    UnknownAccount(String),
    /// Payment approval: the person may not pay from a debtor account.
    NotAllowedToPay,
    Storage(String),
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::NotFound => write!(f, "There is no such authorisation."),
            StepError::Expired => write!(
                f,
                "This authorisation has expired; start again from the TPP."
            ),
            StepError::AlreadyFinished => write!(f, "This authorisation is already finished."),
            StepError::WrongStep(step) => write!(
                f,
                "That step does not fit here; the authorisation is at step {step:?}."
            ),
            StepError::InvalidNationalId(why) => {
                write!(f, "That is not a valid national identity number: {why}.")
            }
            StepError::UnknownPerson => {
                write!(f, "No sandbox customer has that national identity number.")
            }
            StepError::NoAgreements => write!(
                f,
                "This person has no corporate agreements; choose the private context."
            ),
            StepError::UnknownAgreement => {
                write!(f, "This person has no such corporate agreement.")
            }
            StepError::UnknownAccount(id) => {
                write!(f, "Account {id} cannot be granted in this context.")
            }
            StepError::NotAllowedToPay => write!(
                f,
                "This person may not make payments from the account to be debited."
            ),
            StepError::Storage(why) => write!(f, "The sandbox could not save this step: {why}"),
        }
    }
}

impl From<Refusal> for StepError {
    fn from(error: Refusal) -> Self {
        StepError::Storage(error.text)
    }
}

impl From<crate::store::StoreError> for StepError {
    fn from(error: crate::store::StoreError) -> Self {
        StepError::Storage(error.to_string())
    }
}

impl StepError {
    /// The API form, for the automation endpoint.
    pub fn to_refusal(&self) -> Refusal {
        let code = match self {
            StepError::NotFound => Code::ScaNotFound,
            StepError::Expired => Code::ScaExpired,
            StepError::AlreadyFinished | StepError::WrongStep(_) => Code::ScaInvalid,
            StepError::InvalidNationalId(_) => Code::FormatError,
            StepError::UnknownPerson => Code::PsuCredentialsInvalid,
            StepError::NoAgreements
            | StepError::UnknownAgreement
            | StepError::UnknownAccount(_) => Code::BadRequest,
            StepError::NotAllowedToPay => Code::PsuCredentialsInvalid,
            StepError::Storage(_) => Code::SystemError,
        };
        Refusal::new(code, None, self.to_string())
    }
}
