//! Pure rules and types of the interface: money, code lists and Norwegian numbers. No I/O lives here.
//!
//! Every type here is built only by parsing, so holding one proves the value passed its rules;
//! handlers parse at the edge and pass these types inward.

pub mod bban;
pub mod calendar_date;
pub mod country;
pub mod currency;
mod currency_table;
pub mod error;
pub mod fix;
pub mod iban;
pub mod kid;
pub mod mod11;
pub mod money;
pub mod national_id;
pub mod org_number;

pub use bban::Bban;
pub use country::Country;
pub use currency::Currency;
pub use error::DomainError;
pub use iban::Iban;
pub use kid::{Kid, KidAlgorithm, KidError};
pub use money::Amount;
pub use national_id::{CheckDigitRule, GeneratedKind, IdKind, NationalId, Sex};
pub use org_number::OrgNumber;

// The vocabulary every rule speaks: the one clock, the one refusal, what the sandbox tolerates, and the
// cause each write is journaled under.
pub mod cause;
pub mod clock;
pub mod refusal;
pub mod tolerance;
