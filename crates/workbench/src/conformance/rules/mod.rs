//! The rules: each a pure function over the selection's [`Context`] that returns a [`Grade`], with its
//! stable id, section of the bank's documentation, what it checks, what production does and how it is graded (the
//! same texts docs/conformance.md lists; a test keeps them in step). One file per group.

pub mod general;
pub mod headers;
pub mod payments;
pub mod preflight;
pub mod robustness;
pub mod sca;
pub mod signing;
pub mod signing_form;

use super::context::{Call, Context};
use super::model::{Evidence, Group, Verdict};
use std::collections::HashSet;

/// How a rule is graded.
pub enum Grader {
    /// From the traffic alone.
    Traffic(fn(&Context) -> Grade),
    /// From the traffic and the exchanges the other rules already cited (the leftovers rule).
    Leftovers(fn(&Context, &Cited) -> Grade),
}

/// One rule of the catalogue.
pub struct Rule {
    pub id: &'static str,
    pub group: Group,
    pub title: &'static str,
    /// The section (and item) of the bank's documentation the rule comes from.
    pub spec: &'static str,
    pub checks: &'static str,
    pub production: &'static str,
    /// How the verdict is reached, for docs/conformance.md.
    pub graded: &'static str,
    pub grader: Grader,
}

/// The exchanges other rules cited (by their place in the selection).
pub type Cited = HashSet<(Option<u64>, Option<u32>)>;

/// A rule's outcome before it is put in the report.
#[derive(Debug, Clone)]
pub struct Grade {
    pub verdict: Verdict,
    pub summary: String,
    pub exercised: u32,
    pub evidence: Vec<Evidence>,
    /// The exchanges the rule found breaking it (FAILED): a refusal of one of these is explained.
    pub explains: Cited,
}

impl Grade {
    pub fn not_exercised(why: impl Into<String>) -> Grade {
        Grade {
            verdict: Verdict::NotExercised,
            summary: why.into(),
            exercised: 0,
            evidence: Vec::new(),
            explains: Cited::new(),
        }
    }

    /// A grade with one verdict for all its evidence.
    pub fn of(verdict: Verdict, summary: String, exercised: u32, evidence: Vec<Evidence>) -> Grade {
        let explains = if verdict == Verdict::Failed {
            evidence.iter().map(|e| (e.exchange_id, e.step)).collect()
        } else {
            Cited::new()
        };
        Grade {
            verdict,
            summary,
            exercised,
            evidence,
            explains,
        }
    }
}

/// What a rule found, case by case; [`Tally::grade`] turns it into a verdict.
#[derive(Debug, Default)]
pub struct Tally {
    pub exercised: u32,
    failed: Vec<Evidence>,
    warned: Vec<Evidence>,
    review: Vec<Evidence>,
}

impl Tally {
    pub fn seen(&mut self) {
        self.exercised += 1;
    }

    pub fn fail(&mut self, evidence: Evidence) {
        self.failed.push(evidence);
    }

    pub fn warn(&mut self, evidence: Evidence) {
        self.warned.push(evidence);
    }

    pub fn review(&mut self, evidence: Evidence) {
        self.review.push(evidence);
    }

    /// The verdict: FAILED over WARNING over REVIEW over PASSED; NOT EXERCISED when nothing was seen.
    /// `what` names the cases in the plural ("signed requests"), `unseen` says why none were.
    pub fn grade(self, what: &str, unseen: &str) -> Grade {
        if self.exercised == 0 && self.failed.is_empty() && self.warned.is_empty() {
            return Grade::not_exercised(unseen);
        }
        let exercised = self.exercised.max(1);
        let (verdict, found) = if !self.failed.is_empty() {
            (Verdict::Failed, &self.failed)
        } else if !self.warned.is_empty() {
            (Verdict::Warning, &self.warned)
        } else if !self.review.is_empty() {
            (Verdict::Review, &self.review)
        } else {
            return Grade::of(
                Verdict::Passed,
                format!("{0}/{0} {what} follow the rule.", self.exercised),
                exercised,
                Vec::new(),
            );
        };
        let summary = format!(
            "{} of {} {what}: {}{}",
            found.len(),
            exercised.max(found.len() as u32),
            found[0].note,
            if found.len() > 1 {
                " (and more below)"
            } else {
                ""
            }
        );
        let explains: Cited = self
            .failed
            .iter()
            .map(|e| (e.exchange_id, e.step))
            .collect();
        let mut evidence = self.failed;
        evidence.extend(self.warned);
        evidence.extend(self.review);
        Grade {
            verdict,
            summary,
            exercised,
            evidence,
            explains,
        }
    }
}

/// The reason signing rules are not exercised on a flow file.
pub const UNSIGNED_FLOW: &str =
    "A flow file keeps no signing headers (Date, Signature, certificate): grade the traffic log instead.";
/// The reason timing rules are not exercised on a flow file.
pub const UNTIMED_FLOW: &str = "A flow file keeps no times: grade the traffic log instead.";

/// A short "GET /v1/accounts (#12)" for notes that point at another exchange.
pub fn named(call: &Call) -> String {
    let place = match (call.x.exchange_id, call.x.step) {
        (Some(id), _) => format!("exchange #{id}"),
        (None, Some(step)) => format!("step {step}"),
        _ => "an earlier exchange".to_owned(),
    };
    format!("{} {} ({place})", call.x.method, call.x.path)
}

/// Every rule, in report order (pre-flight first, the leftovers rule last).
pub fn catalogue() -> Vec<&'static Rule> {
    let mut all: Vec<&'static Rule> = Vec::new();
    all.extend(preflight::RULES.iter());
    all.extend(signing::RULES.iter());
    all.extend(signing_form::RULES.iter());
    all.extend(headers::RULES.iter());
    all.extend(sca::RULES.iter());
    all.extend(payments::RULES.iter());
    all.extend(robustness::RULES.iter());
    all.extend(general::RULES.iter());
    all
}
