//! What a check collects while its steps run: each step's verdict (when asked to explain), which steps
//! passed and which could not be checked (for the refusal's summary), what was tolerated (things
//! production refuses, accepted under the sandbox profile: `crate::domain::tolerance`; the gate judges them with
//! `rehearsal::tolerance`) and the signing string the sandbox computed.

use super::Verdict;
use crate::domain::refusal::{Code, Refusal};
use crate::domain::tolerance::{Tolerance, Tolerated};
use crate::signing::steps::Step;
use std::borrow::Cow;

/// Collects verdicts and warnings while the steps run.
pub(super) struct Run {
    pub explain: bool,
    pub steps: Vec<(Step, Verdict)>,
    pub tolerated: Vec<Tolerated>,
    pub signing_string: Option<String>,
    /// The steps that passed, one bit per step (kept on every request: a bit costs nothing, and a
    /// refusal's summary names them).
    passed: u16,
    /// The steps that could not run, each with the reason (only a refused request has any).
    pub not_checked: Vec<(Step, String)>,
    /// The request carries no Signature: it is not signed at all, and what its other steps found says
    /// nothing a client can use (the refusal says how to sign instead).
    pub unsigned: bool,
}

impl Run {
    pub fn new(explain: bool) -> Self {
        Run {
            explain,
            steps: Vec::new(),
            tolerated: Vec::new(),
            signing_string: None,
            passed: 0,
            not_checked: Vec::new(),
            unsigned: false,
        }
    }

    /// Runs one step: its refusal is recorded as the step's verdict and named after the step.
    pub fn step<T>(
        &mut self,
        step: Step,
        check: impl FnOnce(&mut Run) -> Result<T, Refusal>,
    ) -> Result<T, Refusal> {
        let result = check(self);
        self.record(step, result)
    }

    /// Records a step's outcome found elsewhere: a refusal becomes the step's failed verdict.
    pub fn record<T>(&mut self, step: Step, result: Result<T, Refusal>) -> Result<T, Refusal> {
        result.or_else(|error| self.fail(step, error))
    }

    /// A passed step's note: most are fixed texts, lent rather than copied (this runs for every logged
    /// request).
    pub fn pass<N: Into<Cow<'static, str>>>(&mut self, step: Step, note: impl FnOnce() -> N) {
        self.passed |= 1 << step as u16;
        if self.explain {
            self.steps.push((step, Verdict::Passed(note().into())));
        }
    }

    /// A step that cannot run because something it reads is missing or unusable (`reason` completes
    /// "could not be checked because …", e.g. "Date is missing").
    pub fn not_checked(&mut self, step: Step, reason: impl Into<String>) {
        let reason = reason.into();
        if self.explain {
            self.steps.push((
                step,
                Verdict::NotChecked(format!("could not be checked because {reason}")),
            ));
        }
        self.not_checked.push((step, reason));
    }

    /// Whether `step` passed.
    pub fn passed(&self, step: Step) -> bool {
        self.passed & (1 << step as u16) != 0
    }

    fn fail<T>(&mut self, step: Step, error: Refusal) -> Result<T, Refusal> {
        debug_assert!(
            step.definition().refusal_codes.contains(&error.code),
            "step '{}' refused with {:?}, which its row in signing::steps does not list",
            step.name(),
            error.code
        );
        let mut error = error;
        error.text = format!(
            "Request signature check failed at step '{}': {}",
            step.name(),
            error.text
        );
        if self.explain {
            self.steps.push((step, Verdict::Failed(error.text.clone())));
        }
        Err(error)
    }

    /// Accepts something production refuses, noting which tolerance allowed it.
    pub fn tolerate(&mut self, tolerance: Tolerance, header: &str, text: impl Into<String>) {
        self.tolerated
            .push(Tolerated::new(tolerance, Code::FormatError, header, text));
    }
}
