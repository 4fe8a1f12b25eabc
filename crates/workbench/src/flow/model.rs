//! The flow file: `{"format": "xs2a-sandbox/flow", "version": 2, "state": ..., "recordedBy": [...],
//! "steps": [...]}`. A step is an exchange (a request to send again and the answer it got) or an SCA (the
//! PSU's part, done on replay through the automation endpoint `POST /v1/sandbox/sca/{id}`); `recordedBy`
//! names the TPPs whose certificates signed the recorded requests (`flow::recorded_by`).

use super::recorded_by::Recorder;
use crate::state_file::error::{pointer_of, FaultKind, FileError};
use crate::state_file::versions::{FileMigration, Versions};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const FORMAT: &str = "xs2a-sandbox/flow";
/// Changes of the flow format, oldest first; an older flow is brought up through them as it is read.
pub const MIGRATIONS: &[FileMigration] = &[FileMigration {
    to: 2,
    what: "recordedBy and an SCA step's psuCorporateId added",
    run: version_2_adds_optional_members,
}];

/// Version 2 added members a version 1 flow reads well without (`recordedBy`, an SCA step's
/// `psuCorporateId`): nothing to change. The version still went up, so that an older sandbox reading a
/// newer flow says it is newer instead of refusing an unknown member.
fn version_2_adds_optional_members(_: &mut Value) -> Result<(), FileError> {
    Ok(())
}
/// The flow's versions: [`MIGRATIONS`] and what messages call it.
pub const VERSIONS: Versions = Versions {
    kind: "flow",
    migrations: MIGRATIONS,
};
/// The format version this sandbox writes, and the newest it reads.
pub const VERSION: u64 = VERSIONS.current();

/// A recorded flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FlowFile {
    pub format: String,
    pub version: u64,
    /// The state the flow starts from: a state file's path (relative to the flow file) or a note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The TPPs whose certificates signed the recorded requests, in the order they first did (one for a
    /// journey); empty when the recording does not say (a version 1 flow, a HAR file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recorded_by: Vec<Recorder>,
    pub steps: Vec<Step>,
}

/// One step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Step {
    Exchange(Exchange),
    Sca(Sca),
}

/// A request and the answer it got when recorded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Exchange {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub request: Request,
    pub response: Response,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Request {
    pub method: String,
    /// Path and query, e.g. `/v1/accounts?withBalance=true`.
    pub path: String,
    /// Headers to send besides those signing adds (Date, Digest, X-Request-ID, Signature,
    /// TPP-Signature-Certificate are made afresh on replay).
    #[serde(default)]
    pub headers: Vec<(String, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Response {
    pub status: u16,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
}

/// The PSU's SCA of one authorisation, done through the automation endpoint on replay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sca {
    /// The recorded authorisation id (mapped to the live one on replay).
    pub authorisation_id: String,
    /// The automation endpoint's body: nationalId, context, agreementId, accounts, method, outcome.
    #[serde(default)]
    pub drive: Value,
    /// The psu-id the recorded SCA gave, so later requests' PSU-ID can follow the live one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub psu_id: Option<String>,
    /// The corporate id the recorded SCA gave (a corporate context), so later requests'
    /// PSU-Corporate-ID can follow the live one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub psu_corporate_id: Option<String>,
}

impl FlowFile {
    pub fn new(steps: Vec<Step>) -> Self {
        FlowFile {
            format: FORMAT.into(),
            version: VERSION,
            state: None,
            description: None,
            recorded_by: Vec::new(),
            steps,
        }
    }

    /// Parses a flow file, refusing with the JSON pointer at fault; an older version is read as this one.
    pub fn parse(bytes: &[u8]) -> Result<FlowFile, FileError> {
        Self::parse_with(bytes, &VERSIONS)
    }

    /// [`FlowFile::parse`] for the file versions `versions` (tests give a list of their own).
    pub(crate) fn parse_with(bytes: &[u8], versions: &Versions) -> Result<FlowFile, FileError> {
        let mut value: Value = serde_json::from_slice(bytes)
            .map_err(|e| FileError::new(FaultKind::Syntax, "", format!("not JSON: {e}")))?;
        if value.get("format").and_then(Value::as_str) != Some(FORMAT) {
            return Err(FileError::new(
                FaultKind::Format,
                "/format",
                format!("not a flow file: expected \"format\": \"{FORMAT}\""),
            ));
        }
        let version = versions.check(value.get("version"))?;
        versions.upgrade(&mut value, version)?;
        serde_path_to_error::deserialize(&value)
            .map_err(|e| FileError::schema(pointer_of(e.path()), e.inner().to_string()))
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("a flow serialises");
        bytes.push(b'\n');
        bytes
    }
}

impl Step {
    /// A short label for reports: `POST /v1/payments/...` or `SCA <id>`.
    pub fn label(&self) -> String {
        match self {
            Step::Exchange(e) => match &e.name {
                Some(name) => format!("{name} ({} {})", e.request.method, e.request.path),
                None => format!("{} {}", e.request.method, e.request.path),
            },
            Step::Sca(s) => format!("SCA of authorisation {}", s.authorisation_id),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A synthetic change of the flow format: in "version 1" an exchange's request had `url`, not `path`.
    fn url_was_path(document: &mut Value) -> Result<(), FileError> {
        for step in document["steps"].as_array_mut().into_iter().flatten() {
            if let Some(url) = step["request"]
                .as_object_mut()
                .and_then(|r| r.remove("url"))
            {
                step["request"]["path"] = url;
            }
        }
        Ok(())
    }

    const SYNTHETIC: Versions = Versions {
        kind: "flow",
        migrations: &[FileMigration {
            to: 2,
            what: "a request's url is called path",
            run: url_was_path,
        }],
    };

    fn flow(version: u64, member: &str) -> Vec<u8> {
        json!({"format": FORMAT, "version": version, "steps": [{"kind": "exchange",
            "request": {"method": "GET", member: "/v1/accounts"}, "response": {"status": 401}}]})
        .to_string()
        .into_bytes()
    }

    #[test]
    fn an_older_flow_is_read_as_the_current_version() {
        let read = FlowFile::parse_with(&flow(1, "url"), &SYNTHETIC).unwrap();
        assert_eq!(read.version, 2);
        let Step::Exchange(exchange) = &read.steps[0] else {
            panic!("an exchange")
        };
        assert_eq!(exchange.request.path, "/v1/accounts");
        assert_eq!(
            FlowFile::parse_with(&flow(2, "path"), &SYNTHETIC).unwrap(),
            read
        );
    }

    #[test]
    fn a_version_1_flow_reads_as_version_2_without_a_recorder() {
        let read = FlowFile::parse(&flow(1, "path")).unwrap();
        assert_eq!((read.version, read.recorded_by.len()), (2, 0));
        assert_eq!(read, FlowFile::parse(&flow(2, "path")).unwrap());
    }

    #[test]
    fn a_newer_flow_is_refused_naming_both_versions() {
        let error = FlowFile::parse(&flow(VERSION + 1, "path")).unwrap_err();
        assert_eq!(
            (error.kind, error.pointer.as_str()),
            (FaultKind::Version, "/version")
        );
        assert!(
            error
                .message
                .contains(&format!("format version {} is unknown", VERSION + 1))
                && error
                    .message
                    .contains(&format!("flows up to version {VERSION}")),
            "{error}"
        );
        assert!(FlowFile::parse(&flow(VERSION, "path")).is_ok());
    }
}
