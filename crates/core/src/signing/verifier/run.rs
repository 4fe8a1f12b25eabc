//! What a check collects while its steps run: each step's verdict (when asked to explain), what was
//! tolerated (things production refuses, accepted under the sandbox profile: `crate::tolerance`; the gate
//! judges them with `rehearsal::tolerance`) and the signing string the sandbox computed.

use crate::refusal::{Code, Refusal};
use crate::signing::steps::Step;
use crate::tolerance::{Tolerance, Tolerated};
use std::borrow::Cow;

/// Collects verdicts and warnings while the steps run.
pub(super) struct Run {
    pub explain: bool,
    pub steps: Vec<(Step, Result<Cow<'static, str>, String>)>,
    pub tolerated: Vec<Tolerated>,
    pub signing_string: Option<String>,
    /// The failures after the first, in the steps' order (the first is the refusal).
    pub also: Vec<Refusal>,
}

impl Run {
    pub fn new(explain: bool) -> Self {
        Run {
            explain,
            steps: Vec::new(),
            tolerated: Vec::new(),
            signing_string: None,
            also: Vec::new(),
        }
    }

    /// Runs one step: its refusal is recorded as the step's verdict and named after the step.
    pub fn step<T>(
        &mut self,
        step: Step,
        check: impl FnOnce(&mut Run) -> Result<T, Refusal>,
    ) -> Result<T, Refusal> {
        check(self).or_else(|error| self.fail(step, error))
    }

    /// A passed step's note: most are fixed texts, lent rather than copied (this runs for every logged
    /// request).
    pub fn pass<N: Into<Cow<'static, str>>>(&mut self, step: Step, note: impl FnOnce() -> N) {
        if self.explain {
            self.steps.push((step, Ok(note().into())));
        }
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
        self.steps.push((step, Err(error.text.clone())));
        Err(error)
    }

    /// Accepts something production refuses, noting which tolerance allowed it.
    pub fn tolerate(&mut self, tolerance: Tolerance, header: &str, text: impl Into<String>) {
        self.tolerated
            .push(Tolerated::new(tolerance, Code::FormatError, header, text));
    }
}
