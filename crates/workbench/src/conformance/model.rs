//! The conformance report as it leaves the core: pre-flight checks, then the rules by group, each with its
//! verdict, the evidence (exchanges of the traffic log, or steps of a flow file) and what production does.
//! Versioned (`format`, `version`) and described by fixtures/schema/conformance-report.schema.json; the
//! workbench API serves it as it is, and the CLI writes it as JSON, JUnit and HTML.

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// The `format` of a report file.
pub const FORMAT: &str = "xs2a-sandbox/conformance-report";
/// The report's format version (fixtures/schema/conformance-report.schema.json).
pub const VERSION: u32 = 1;

/// How one rule (or pre-flight check) came out.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[schema(as = ConformanceVerdict)]
pub enum Verdict {
    /// Exercised, and the traffic follows the rule.
    Passed,
    /// The traffic breaks the rule as production would refuse or the bank forbids.
    Failed,
    /// Accepted today, but risky, deprecated or likely refused by production.
    Warning,
    /// The traffic cannot settle it: a person must judge (the evidence says what to look at).
    Review,
    /// Nothing in the selection exercised the rule.
    NotExercised,
}

impl Verdict {
    /// As people read it: `NOT EXERCISED`, `PASSED`, ...
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Passed => "PASSED",
            Verdict::Failed => "FAILED",
            Verdict::Warning => "WARNING",
            Verdict::Review => "REVIEW",
            Verdict::NotExercised => "NOT EXERCISED",
        }
    }

    /// How much a verdict weighs in a summary: the report's overall verdict is the heaviest.
    fn weight(self) -> u8 {
        match self {
            Verdict::NotExercised => 0,
            Verdict::Passed => 1,
            Verdict::Review => 2,
            Verdict::Warning => 3,
            Verdict::Failed => 4,
        }
    }

    /// The heavier of two verdicts.
    pub fn worst(self, other: Verdict) -> Verdict {
        if other.weight() > self.weight() {
            other
        } else {
            self
        }
    }
}

/// The groups of the report, in its order.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
)]
#[serde(rename_all = "kebab-case")]
#[schema(as = ConformanceGroup)]
pub enum Group {
    /// Configuration, said first: certificate roles, its CA, the clock, the redirect URI.
    Preflight,
    Signing,
    Headers,
    ScaConsent,
    Payments,
    Robustness,
    /// What no rule above explains (refusals left over).
    General,
}

impl Group {
    pub const ALL: [Group; 7] = [
        Group::Preflight,
        Group::Signing,
        Group::Headers,
        Group::ScaConsent,
        Group::Payments,
        Group::Robustness,
        Group::General,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Group::Preflight => "Pre-flight",
            Group::Signing => "Signing",
            Group::Headers => "Headers",
            Group::ScaConsent => "SCA and consent",
            Group::Payments => "Payments",
            Group::Robustness => "Robustness",
            Group::General => "General",
        }
    }

    /// The group's name in JSON and JUnit (`sca-consent`).
    pub fn key(self) -> &'static str {
        match self {
            Group::Preflight => "preflight",
            Group::Signing => "signing",
            Group::Headers => "headers",
            Group::ScaConsent => "sca-consent",
            Group::Payments => "payments",
            Group::Robustness => "robustness",
            Group::General => "general",
        }
    }
}

/// One exchange (or flow step) a verdict rests on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceEvidence)]
pub struct Evidence {
    /// The traffic log's entry number (the inspector opens it); null for a flow file's step.
    #[schema(required = true)]
    pub exchange_id: Option<u64>,
    /// The flow file's step number (1-based); null for the traffic log.
    #[schema(required = true)]
    pub step: Option<u32>,
    /// The sandbox clock's time of the request; null for a flow file.
    #[serde(default, with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub at: Option<OffsetDateTime>,
    pub method: String,
    /// Path and query as sent.
    pub path: String,
    pub status: u16,
    /// The journeys the exchange belongs to (the flow view opens them).
    pub journeys: Vec<String>,
    /// What this exchange shows, in a sentence.
    pub note: String,
}

/// The outcome of one rule or pre-flight check.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceRuleResult)]
pub struct RuleResult {
    /// Stable: `NO-SIG-003` keeps its meaning across releases.
    pub id: String,
    pub group: Group,
    pub title: String,
    /// Where the bank's documentation says it, e.g. "Authentication › Request signing 7".
    pub spec_section: String,
    /// What the rule checks.
    pub checks: String,
    /// What production does about it.
    pub production: String,
    pub verdict: Verdict,
    /// The outcome in a sentence.
    pub summary: String,
    /// How many exchanges (or cases) the rule looked at.
    pub exercised: u32,
    pub evidence: Vec<Evidence>,
    /// Evidence beyond the kept items, counted but not listed.
    pub evidence_omitted: u32,
}

/// How many rules came out each way.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceCounts)]
pub struct Counts {
    pub passed: u32,
    pub failed: u32,
    pub warning: u32,
    pub review: u32,
    pub not_exercised: u32,
}

impl Counts {
    pub fn of<'a>(results: impl IntoIterator<Item = &'a RuleResult>) -> Counts {
        let mut counts = Counts::default();
        for result in results {
            match result.verdict {
                Verdict::Passed => counts.passed += 1,
                Verdict::Failed => counts.failed += 1,
                Verdict::Warning => counts.warning += 1,
                Verdict::Review => counts.review += 1,
                Verdict::NotExercised => counts.not_exercised += 1,
            }
        }
        counts
    }
}

/// One group's rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceGroupResult)]
pub struct GroupResult {
    pub group: Group,
    pub title: String,
    pub verdict: Verdict,
    pub counts: Counts,
    pub rules: Vec<RuleResult>,
}

/// Where the graded traffic came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
#[schema(as = ConformanceSource)]
pub enum Source {
    TrafficLog,
    FlowFile,
}

/// The TPP graded, as its certificate names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceTpp)]
pub struct TppNamed {
    pub organisation_id: String,
    pub name: String,
}

/// What was graded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceSelection)]
pub struct SelectionSummary {
    pub source: Source,
    /// The TPP; null for a flow file graded without --tpp.
    #[schema(required = true)]
    pub tpp: Option<TppNamed>,
    #[serde(default, with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub since: Option<OffsetDateTime>,
    #[serde(default, with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub until: Option<OffsetDateTime>,
    #[schema(required = true)]
    pub journey: Option<String>,
    /// The flow file's name, when one was graded.
    #[schema(required = true)]
    pub flow_file: Option<String>,
    /// Every exchange selected (the TPP's, and the PSU's steps on the SCA pages of its authorisations).
    pub exchanges: u32,
    /// Of those, calls to the bank's interface (the rules grade these).
    pub bank_exchanges: u32,
    /// Calls to /v1/sandbox (mock data, clock, SCA automation): production has none; no rule grades them.
    pub sandbox_exchanges: u32,
    /// The PSU's requests on the bank's SCA pages.
    pub sca_page_exchanges: u32,
    #[serde(default, with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub first_at: Option<OffsetDateTime>,
    #[serde(default, with = "time::serde::rfc3339::option")]
    #[schema(required = true)]
    pub last_at: Option<OffsetDateTime>,
    /// True when more exchanges matched than a report grades: the newest were kept.
    pub truncated: bool,
}

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = ConformanceReport)]
pub struct Report {
    /// Always `xs2a-sandbox/conformance-report`.
    pub format: String,
    /// The report format's version.
    pub version: u32,
    /// The sandbox that graded it.
    pub sandbox_version: String,
    /// The sandbox clock's time when it was made.
    #[serde(with = "time::serde::rfc3339")]
    pub generated_at: OffsetDateTime,
    pub selection: SelectionSummary,
    /// The heaviest verdict of all: FAILED over WARNING over REVIEW over PASSED over NOT_EXERCISED.
    pub verdict: Verdict,
    /// Every rule and pre-flight check counted by verdict.
    pub counts: Counts,
    /// Configuration checks, said first so that they do not drown the report.
    pub preflight: Vec<RuleResult>,
    /// The rules, by group (signing, headers, sca-consent, payments, robustness, general).
    pub groups: Vec<GroupResult>,
    /// What the reader should know about the traffic as a whole (a clock that stood still, ...).
    pub notes: Vec<String>,
}

impl Report {
    /// Every result, pre-flight first.
    pub fn results(&self) -> impl Iterator<Item = &RuleResult> {
        self.preflight
            .iter()
            .chain(self.groups.iter().flat_map(|g| g.rules.iter()))
    }

    /// The result of rule `id`.
    pub fn rule(&self, id: &str) -> Option<&RuleResult> {
        self.results().find(|r| r.id == id)
    }
}
