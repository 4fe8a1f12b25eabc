//! Why a step of an authorisation was not taken: shown on the bank's pages, or answered by the automation
//! endpoint as a refusal (`to_refusal`).

use super::authorisation::Step;
use crate::refusal::{Code, Refusal};

/// Why a step was not taken; shown on the page, or returned by the automation endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FlowError {
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

impl std::fmt::Display for FlowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FlowError::NotFound => write!(f, "There is no such authorisation."),
            FlowError::Expired => write!(
                f,
                "This authorisation has expired; start again from the TPP."
            ),
            FlowError::AlreadyFinished => write!(f, "This authorisation is already finished."),
            FlowError::WrongStep(step) => write!(
                f,
                "That step does not fit here; the authorisation is at step {step:?}."
            ),
            FlowError::InvalidNationalId(why) => {
                write!(f, "That is not a valid national identity number: {why}.")
            }
            FlowError::UnknownPerson => {
                write!(f, "No sandbox customer has that national identity number.")
            }
            FlowError::NoAgreements => write!(
                f,
                "This person has no corporate agreements; choose the private context."
            ),
            FlowError::UnknownAgreement => {
                write!(f, "This person has no such corporate agreement.")
            }
            FlowError::UnknownAccount(id) => {
                write!(f, "Account {id} cannot be granted in this context.")
            }
            FlowError::NotAllowedToPay => write!(
                f,
                "This person may not make payments from the account to be debited."
            ),
            FlowError::Storage(why) => write!(f, "The sandbox could not save this step: {why}"),
        }
    }
}

impl From<Refusal> for FlowError {
    fn from(error: Refusal) -> Self {
        FlowError::Storage(error.text)
    }
}

impl From<crate::store::StoreError> for FlowError {
    fn from(error: crate::store::StoreError) -> Self {
        FlowError::Storage(error.to_string())
    }
}

impl FlowError {
    /// The API form, for the automation endpoint.
    pub fn to_refusal(&self) -> Refusal {
        let code = match self {
            FlowError::NotFound => Code::ScaNotFound,
            FlowError::Expired => Code::ScaExpired,
            FlowError::AlreadyFinished | FlowError::WrongStep(_) => Code::ScaInvalid,
            FlowError::InvalidNationalId(_) => Code::FormatError,
            FlowError::UnknownPerson => Code::PsuCredentialsInvalid,
            FlowError::NoAgreements
            | FlowError::UnknownAgreement
            | FlowError::UnknownAccount(_) => Code::BadRequest,
            FlowError::NotAllowedToPay => Code::PsuCredentialsInvalid,
            FlowError::Storage(_) => Code::SystemError,
        };
        Refusal::new(code, None, self.to_string())
    }
}
