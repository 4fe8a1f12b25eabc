//! Strong customer authentication by redirect: who the PSU is for each TPP (psu-id), the authorisations
//! a TPP starts (the bank's pages walk the PSU through them), and the TPP sessions in which one completed
//! SCA lasts an hour (docs/interface.md#strong-customer-authentication-and-tpp-sessions).

pub mod approval;
pub mod asking;
pub mod authorisation;
pub mod engine;
mod expiry;
pub mod payment_start;
pub mod presets;
pub mod psu;
pub mod redirect_query;
pub mod retention;
pub mod session;
mod step_error;
pub mod sub_resources;

use serde::{Deserialize, Serialize};

/// Whether the PSU acts as a private person or for a corporation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Context {
    Private,
    Corporate,
}

impl Context {
    pub fn as_str(self) -> &'static str {
        match self {
            Context::Private => "PRIVATE",
            Context::Corporate => "CORPORATE",
        }
    }

    pub fn parse(text: &str) -> Option<Context> {
        match text {
            "PRIVATE" => Some(Context::Private),
            "CORPORATE" => Some(Context::Corporate),
            _ => None,
        }
    }
}
