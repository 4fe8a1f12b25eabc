//! A workbench persona as stored (tree `workbench-personas`, kept across sandbox resets): below both the
//! workbench, which issues, imports and signs with personas, and the state file, which carries them, so
//! neither has to reach into the other.

use serde::{Deserialize, Serialize};
use xs2a_core::store::Record;

/// Where a persona's certificate came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Bundled,
    Issued,
    Imported,
}

/// A persona as stored (tree `workbench-personas`; kept across sandbox resets).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredPersona {
    pub id: String,
    pub name: String,
    pub source: Source,
    pub certificate_pem: String,
    pub private_key_pem: String,
    pub psu_id: Option<String>,
    pub psu_corporate_id: Option<String>,
    pub tpp_session_id: Option<String>,
}

impl Record for StoredPersona {
    const TREE: &'static str = "workbench-personas";
    fn key(&self) -> String {
        self.id.clone()
    }
}
