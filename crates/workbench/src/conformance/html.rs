//! The report as one self-contained, print-friendly HTML page a TPP can attach to its application for
//! production access: inline CSS, no scripts, nothing fetched. Written with maud, which escapes every
//! value it inserts (the report quotes the app's own paths and the bank's texts).

use super::junit::evidence_line;
use super::model::{Report, RuleResult, Verdict};
use maud::{html, Markup, PreEscaped, DOCTYPE};
use time::format_description::well_known::Rfc3339;

const STYLE: &str = r#"
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --pass: #1a7f37; --fail: #b42318;
        --warn: #8a5a00; --review: #5b3fb0; --none: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       margin: 2rem auto; max-width: 60rem; padding: 0 1rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 2px solid var(--line); padding-bottom: .25rem; }
.meta { color: var(--muted); margin: 0 0 1rem; }
dl.about { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 1rem 0; }
dl.about dt { color: var(--muted); }
dl.about dd { margin: 0; }
.counts { display: flex; flex-wrap: wrap; gap: .5rem; margin: 1rem 0; padding: 0; list-style: none; }
.counts li { border: 1px solid var(--line); border-radius: 4px; padding: .25rem .6rem; }
.verdict { display: inline-block; font-weight: 700; font-size: .8rem; letter-spacing: .03em;
           border: 1.5px solid currentColor; border-radius: 3px; padding: 0 .35rem; white-space: nowrap; }
.v-PASSED { color: var(--pass); } .v-FAILED { color: var(--fail); } .v-WARNING { color: var(--warn); }
.v-REVIEW { color: var(--review); } .v-NOT_EXERCISED { color: var(--none); }
.rule { border: 1px solid var(--line); border-radius: 4px; padding: .6rem .8rem; margin: .6rem 0;
        break-inside: avoid; }
.rule h3 { font-size: 1rem; margin: 0 0 .3rem; display: flex; gap: .6rem; align-items: baseline; }
.rule .id { font-family: ui-monospace, Menlo, Consolas, monospace; color: var(--muted); }
.rule p { margin: .25rem 0; }
.rule .label { color: var(--muted); }
ul.evidence { margin: .4rem 0 0; padding-left: 1.2rem; font-family: ui-monospace, Menlo, Consolas, monospace;
              font-size: .8rem; overflow-wrap: anywhere; }
.notes { border-left: 3px solid var(--line); padding-left: .8rem; color: var(--muted); }
footer { margin-top: 2rem; color: var(--muted); font-size: .8rem; }
@media print {
  body { margin: 0; max-width: none; font-size: 11pt; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
}
"#;

fn time_text(at: Option<time::OffsetDateTime>) -> String {
    at.and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| "—".to_owned())
}

fn verdict(v: Verdict) -> Markup {
    let class = format!("verdict v-{}", v.label().replace(' ', "_"));
    html! { span class=(class) { (v.label()) } }
}

fn rule(result: &RuleResult) -> Markup {
    html! {
        section class="rule" id=(result.id) {
            h3 {
                span class="id" { (result.id) }
                span { (result.title) }
                (verdict(result.verdict))
            }
            p { (result.summary) }
            p { span class="label" { "Bank's documentation: " } (result.spec_section) }
            p { span class="label" { "Checks: " } (result.checks) }
            p { span class="label" { "Production: " } (result.production) }
            @if !result.evidence.is_empty() {
                ul class="evidence" aria-label={ "Evidence for " (result.id) } {
                    @for e in &result.evidence {
                        li { (evidence_line(e)) }
                    }
                    @if result.evidence_omitted > 0 {
                        li { "… and " (result.evidence_omitted) " more" }
                    }
                }
            }
        }
    }
}

/// The whole report as an HTML document.
pub fn report(report: &Report) -> String {
    let selection = &report.selection;
    let tpp = selection
        .tpp
        .as_ref()
        .map(|t| {
            if t.name.is_empty() {
                t.organisation_id.clone()
            } else {
                format!("{} ({})", t.name, t.organisation_id)
            }
        })
        .unwrap_or_else(|| "—".to_owned());
    let counts = report.counts;
    let page = html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Conformance report — " (tpp) }
                style { (PreEscaped(STYLE)) }
            }
            body {
                header {
                    h1 { "Conformance report" }
                    p class="meta" {
                        "Graded by xs2a-sandbox " (report.sandbox_version) " against the bank's PSD2 interface rules (docs/interface.md), "
                        (time_text(Some(report.generated_at))) " (sandbox clock)."
                    }
                    p { "Overall: " (verdict(report.verdict)) }
                    dl class="about" {
                        dt { "TPP" } dd { (tpp) }
                        dt { "Source" } dd {
                            @match &selection.flow_file {
                                Some(file) => { "flow file " (file) }
                                None => { "traffic log" }
                            }
                        }
                        @if let Some(journey) = &selection.journey { dt { "Journey" } dd { (journey) } }
                        dt { "Window" } dd { (time_text(selection.since)) " – " (time_text(selection.until)) }
                        dt { "Traffic" } dd {
                            (selection.exchanges) " exchanges: " (selection.bank_exchanges) " to the bank's interface, "
                            (selection.sca_page_exchanges) " on the SCA pages, " (selection.sandbox_exchanges) " sandbox-only"
                            @if selection.truncated { " (the newest kept: more matched)" }
                        }
                        dt { "First, last" } dd { (time_text(selection.first_at)) " – " (time_text(selection.last_at)) }
                    }
                    ul class="counts" aria-label="Rules by verdict" {
                        li { (verdict(Verdict::Passed)) " " (counts.passed) }
                        li { (verdict(Verdict::Failed)) " " (counts.failed) }
                        li { (verdict(Verdict::Warning)) " " (counts.warning) }
                        li { (verdict(Verdict::Review)) " " (counts.review) }
                        li { (verdict(Verdict::NotExercised)) " " (counts.not_exercised) }
                    }
                    @if !report.notes.is_empty() {
                        div class="notes" {
                            @for note in &report.notes { p { (note) } }
                        }
                    }
                }
                main {
                    h2 { "Pre-flight" }
                    @for r in &report.preflight { (rule(r)) }
                    @for group in &report.groups {
                        h2 { (group.title) " " (verdict(group.verdict)) }
                        @for r in &group.rules { (rule(r)) }
                    }
                }
                footer {
                    "Verdicts: PASSED — exercised and followed; FAILED — broken as the bank refuses or forbids; "
                    "WARNING — accepted today, risky or likely refused by production; REVIEW — a person must judge; "
                    "NOT EXERCISED — nothing in the traffic exercised it. Report format "
                    (report.format) " version " (report.version) "."
                }
            }
        }
    };
    page.into_string()
}
