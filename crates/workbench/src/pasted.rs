//! The workbench's verifier of a pasted request (docs/workbench-api.md): the paste (a curl command or a
//! raw HTTP request) and the time to check it as of are read, then run through the gate's checks
//! (`xs2a_core::signing::pasted::check`). What cannot be read is refused at the field that holds it.

use xs2a_core::domain::clock::Clock;
use xs2a_core::domain::refusal::{CoreResult, Refusal};
use xs2a_core::signing::pasted::{self, At, Checked, Overrides};
use xs2a_core::signing::verifier::Verifier;

/// The gate's verdict on `request` as of `at` (`date`: the request's own Date; an RFC 3339 or HTTP date;
/// none or blank: the gate's own time): 400 FORMAT_ERROR at `at` for a time that does not read, at
/// `request` for a paste that does not (saying what could not be read, and how to paste it instead).
pub fn check(
    verifier: &Verifier,
    clock: &Clock,
    request: &str,
    at: Option<&str>,
) -> CoreResult<Checked> {
    let at = match at.map(str::trim).filter(|a| !a.is_empty()) {
        Some(text) => At::parse(text).map_err(|e| Refusal::format("at", e))?,
        None => At::Clock(clock),
    };
    pasted::check(verifier, request.as_bytes(), &Overrides::default(), at)
        .map_err(|e| Refusal::format("request", e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use xs2a_core::domain::refusal::Code;
    use xs2a_core::signing::trust::TrustStore;

    fn refused(request: &str, at: Option<&str>) -> (u16, Code, Option<String>) {
        let verifier = Verifier::new(TrustStore::new());
        let Err(refusal) = check(&verifier, &Clock::real(), request, at) else {
            panic!("{request:?} was checked, not refused");
        };
        (refusal.status(), refusal.code, refusal.path)
    }

    #[test]
    fn refuses_a_time_it_cannot_read_at_at() {
        assert_eq!(
            refused("GET /v1/accounts HTTP/1.1\r\n\r\n", Some("yesterday")),
            (400, Code::FormatError, Some("at".to_owned()))
        );
    }

    #[test]
    fn refuses_a_paste_it_cannot_read_at_request() {
        assert_eq!(
            refused("hello", None),
            (400, Code::FormatError, Some("request".to_owned()))
        );
    }

    #[test]
    fn reads_a_raw_request() {
        let verifier = Verifier::new(TrustStore::new());
        let checked = check(
            &verifier,
            &Clock::real(),
            "GET /v1/accounts HTTP/1.1\r\nHost: x\r\n\r\n",
            Some(" "),
        )
        .unwrap();
        assert!(
            checked.report.outcome.is_err(),
            "unsigned: the gate refuses it"
        );
    }
}
