//! The conformance report (docs/conformance.md): grades a TPP app's traffic — the traffic log's exchanges
//! of one TPP over a time window or one journey, or a recorded flow file — against the bank's rules
//! (docs/interface.md). Pre-flight checks come first, then the rules by group, each a pure function over the
//! selection with a stable id, the section of the bank's documentation it comes from, a verdict, the evidence and
//! what production does. No HTTP here: the workbench API serves the report, the CLI writes it as JSON, JUnit and HTML.

pub mod ask;
pub mod context;
pub mod html;
pub mod junit;
pub mod model;
pub mod observed;
pub mod operation;
pub mod rules;
pub mod select;
#[cfg(test)]
mod tests;

use context::Context;
use model::{Counts, Group, GroupResult, Report, RuleResult, SelectionSummary, Verdict};
use observed::{Area, Selection};
use rules::{Cited, Grader};
use time::OffsetDateTime;

/// The most evidence items a rule lists (the rest are counted in `evidenceOmitted`).
pub const EVIDENCE_KEPT: usize = 50;

/// What the report is about, besides the traffic itself.
#[derive(Debug, Clone, Default)]
pub struct About {
    pub tpp: Option<model::TppNamed>,
    pub since: Option<OffsetDateTime>,
    pub until: Option<OffsetDateTime>,
    pub journey: Option<String>,
    pub flow_file: Option<String>,
    /// More exchanges matched than were graded.
    pub truncated: bool,
}

/// Grades `selection`; `now` is the sandbox clock's time.
pub fn grade(selection: &Selection, about: About, now: OffsetDateTime) -> Report {
    let ctx = Context::new(selection);
    let mut results: Vec<RuleResult> = Vec::new();
    let mut cited: Cited = Cited::new();
    let catalogue = rules::catalogue();
    for rule in &catalogue {
        let grade = match &rule.grader {
            Grader::Traffic(grade) => grade(&ctx),
            Grader::Leftovers(grade) => grade(&ctx, &cited),
        };
        cited.extend(grade.explains.iter().copied());
        let omitted = grade.evidence.len().saturating_sub(EVIDENCE_KEPT);
        let mut evidence = grade.evidence;
        evidence.truncate(EVIDENCE_KEPT);
        results.push(RuleResult {
            id: rule.id.to_owned(),
            group: rule.group,
            title: rule.title.to_owned(),
            spec_section: rule.spec.to_owned(),
            checks: rule.checks.to_owned(),
            production: rule.production.to_owned(),
            verdict: grade.verdict,
            summary: grade.summary,
            exercised: grade.exercised,
            evidence,
            evidence_omitted: omitted as u32,
        });
    }
    let counts = Counts::of(&results);
    let verdict = results
        .iter()
        .fold(Verdict::NotExercised, |v, r| v.worst(r.verdict));
    let (preflight, graded): (Vec<RuleResult>, Vec<RuleResult>) = results
        .into_iter()
        .partition(|r| r.group == Group::Preflight);
    let groups = Group::ALL
        .iter()
        .filter(|g| **g != Group::Preflight)
        .map(|group| {
            let rules: Vec<RuleResult> = graded
                .iter()
                .filter(|r| r.group == *group)
                .cloned()
                .collect();
            GroupResult {
                group: *group,
                title: group.title().to_owned(),
                verdict: rules
                    .iter()
                    .fold(Verdict::NotExercised, |v, r| v.worst(r.verdict)),
                counts: Counts::of(&rules),
                rules,
            }
        })
        .collect();
    Report {
        format: model::FORMAT.to_owned(),
        version: model::VERSION,
        sandbox_version: env!("CARGO_PKG_VERSION").to_owned(),
        generated_at: now,
        selection: summary(selection, about),
        verdict,
        counts,
        preflight,
        groups,
        notes: notes(&ctx),
    }
}

fn summary(selection: &Selection, about: About) -> SelectionSummary {
    let count = |area: Area| selection.exchanges().filter(|x| x.area == area).count() as u32;
    let times: Vec<OffsetDateTime> = selection.exchanges().filter_map(|x| x.at).collect();
    SelectionSummary {
        source: if about.flow_file.is_some() {
            model::Source::FlowFile
        } else {
            model::Source::TrafficLog
        },
        tpp: about.tpp,
        since: about.since,
        until: about.until,
        journey: about.journey,
        flow_file: about.flow_file,
        exchanges: selection.exchanges().count() as u32,
        bank_exchanges: count(Area::Bank),
        sandbox_exchanges: count(Area::Sandbox),
        sca_page_exchanges: count(Area::ScaPage),
        first_at: times.iter().min().copied(),
        last_at: times.iter().max().copied(),
        truncated: about.truncated,
    }
}

/// What the reader should know about the traffic as a whole.
fn notes(ctx: &Context) -> Vec<String> {
    let mut notes = Vec::new();
    if !ctx.signed {
        notes.push(rules::UNSIGNED_FLOW.to_owned());
    }
    let bank: Vec<_> = ctx.bank().collect();
    let stood_still = bank
        .windows(2)
        .any(|w| w[0].x.at.is_some() && w[0].x.at == w[1].x.at);
    if stood_still {
        notes.push(
            "The sandbox clock stood still (frozen) between some of these exchanges: the waits between them cannot be \
             measured, and rules that need them say REVIEW there. Run a conformance run with the clock running."
                .to_owned(),
        );
    }
    if ctx.calls.iter().any(|c| c.x.area == Area::Sandbox) {
        notes.push(
            "Calls to /v1/sandbox (mock data, the clock, SCA automation) are counted but graded by no rule: production \
             has none of them. An automated SCA counts as the PSU following the scaRedirect."
                .to_owned(),
        );
    }
    notes
}
