//! The profile setting: `sandbox` (the bank's sandbox, with its tolerances and `/v1/sandbox`) or
//! `production` (the bank as production runs it). Stored in the `rehearsal` tree ([`super::stored`]), so
//! it survives a restart and travels in state files.

use super::stored::StoredRehearsal;
use crate::domain::refusal::CoreResult;
use crate::store::Store;
use serde::{Deserialize, Serialize};

/// How the bank is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// The bank's sandbox: tolerances answered with a WARNING, `/v1/sandbox` open, known issues as the
    /// sandbox settings say.
    #[default]
    Sandbox,
    /// The bank as production runs it: tolerances refused, `/v1/sandbox` answers 404 (but to the
    /// operator), every known issue on.
    Production,
}

impl Profile {
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Sandbox => "sandbox",
            Profile::Production => "production",
        }
    }

    /// Reads `sandbox` or `production` (the CLI's `--profile`).
    pub fn parse(text: &str) -> Result<Profile, String> {
        match text {
            "sandbox" => Ok(Profile::Sandbox),
            "production" => Ok(Profile::Production),
            other => Err(format!(
                "unknown profile '{other}': use sandbox or production"
            )),
        }
    }
}

/// The stored profile (the sandbox profile when none was ever set).
pub fn load(store: &Store) -> CoreResult<Profile> {
    Ok(match store.table::<StoredRehearsal>()?.get("profile")? {
        Some(StoredRehearsal::Profile { profile }) => profile,
        _ => Profile::Sandbox,
    })
}

/// Stores the profile.
pub fn save(store: &Store, profile: Profile) -> CoreResult<()> {
    store
        .table::<StoredRehearsal>()?
        .insert(&StoredRehearsal::Profile { profile })?;
    Ok(())
}
