//! What the bank-side controls read and set around the batch runs: the recent runs
//! (`GET /v1/sandbox/batch-runs`), every TPP's payments for the batch monitor (`GET /v1/sandbox/payments`)
//! and the outcome the next run gives a payment (`PUT /v1/sandbox/payments/{paymentId}/forced-outcome`).
//! The parameters arrive as the request sent them and are read here, so that a refusal names the one at
//! fault (docs/workbench-api.md#sandbox-data; docs/reference/payments.md#forced-outcomes-for-testers).

use super::model::BatchRun;
use crate::bank::pis::model::{ForcedOutcome, Payment};
use crate::bank::pis::status::PaymentStatus;
use crate::bank::pis::summary::{self, PaymentSummary};
use crate::domain::refusal::{CoreResult, Refusal};
use crate::store::Store;

/// The runs listed when no limit is given.
pub const RUNS_BY_DEFAULT: usize = 20;
/// A bound on one answer: a run's outcomes list every payment it processed.
pub const MAX_RUNS: usize = 500;
/// The payments listed when no limit is given.
pub const PAYMENTS_BY_DEFAULT: usize = 200;
/// A bound on one answer of the payments list.
pub const MAX_PAYMENTS: usize = 5000;

/// `limit` as sent: absent is `default`, else a whole number from 1 to `max` (400 FORMAT_ERROR at
/// `limit` otherwise).
fn limit(text: Option<&str>, default: usize, max: usize) -> CoreResult<usize> {
    let Some(text) = text else {
        return Ok(default);
    };
    match text.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(Refusal::format(
            "limit",
            format!("limit '{text}' must be a whole number from 1 to {max}"),
        )),
    }
}

/// The newest runs, `limit` of them as sent ([`RUNS_BY_DEFAULT`], at most [`MAX_RUNS`]).
pub fn recent_runs(store: &Store, limit_sent: Option<&str>) -> CoreResult<Vec<BatchRun>> {
    let limit = limit(limit_sent, RUNS_BY_DEFAULT, MAX_RUNS)?;
    Ok(store.table::<BatchRun>()?.last_n(limit)?)
}

/// `status` as sent: absent or empty is every status, else a payment status code such as `ACTC`.
fn status(text: Option<&str>) -> CoreResult<Option<PaymentStatus>> {
    match text {
        None | Some("") => Ok(None),
        Some(text) => serde_json::from_value::<PaymentStatus>(serde_json::json!(text))
            .map(Some)
            .map_err(|_| {
                Refusal::format("status", format!("status '{text}' is not a payment status"))
            }),
    }
}

/// Every TPP's payments, newest first: only those in `status` when sent, `limit` of them
/// ([`PAYMENTS_BY_DEFAULT`], at most [`MAX_PAYMENTS`]). The status is read first.
pub fn payments(
    store: &Store,
    status_sent: Option<&str>,
    limit_sent: Option<&str>,
) -> CoreResult<Vec<PaymentSummary>> {
    let status = status(status_sent)?;
    let limit = limit(limit_sent, PAYMENTS_BY_DEFAULT, MAX_PAYMENTS)?;
    summary::list(store, status, limit)
}

/// The forced outcome a code names: RJCT, ACCP, PDNG, PART, or none (`null`, clearing it).
fn forced_outcome(code: Option<&str>) -> CoreResult<Option<ForcedOutcome>> {
    match code {
        None => Ok(None),
        Some("RJCT") => Ok(Some(ForcedOutcome::Rejected)),
        Some("ACCP") => Ok(Some(ForcedOutcome::LackingFunds)),
        Some("PDNG") => Ok(Some(ForcedOutcome::Pending)),
        Some("PART") => Ok(Some(ForcedOutcome::Partial)),
        Some(other) => Err(Refusal::format(
            "outcome",
            format!("outcome must be RJCT, ACCP, PDNG, PART or null; got '{other}'"),
        )),
    }
}

/// Sets (or with `None` clears) the outcome the next batch run gives any TPP's payment: the code is
/// read first (400 FORMAT_ERROR at `outcome`), then the payment found (404 RESOURCE_UNKNOWN at
/// `paymentId`). Under the run lock, so that a run does not write the payment back. Answers the payment
/// as stored.
pub fn force_outcome(store: &Store, payment_id: &str, code: Option<&str>) -> CoreResult<Payment> {
    let forced = forced_outcome(code)?;
    let _runs = store.locks().runs();
    let table = store.table::<Payment>()?;
    let mut payment = table
        .get(payment_id)?
        .ok_or_else(|| Refusal::unknown("paymentId", "payment", payment_id))?;
    payment.forced = forced;
    table.insert(&payment)?;
    Ok(payment)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The status, code and field of a refusal.
    fn refused<T: std::fmt::Debug>(result: CoreResult<T>) -> (u16, &'static str, String) {
        let refusal = result.unwrap_err();
        (
            refusal.status(),
            refusal.code.as_str(),
            refusal.path.unwrap_or_default(),
        )
    }

    #[test]
    fn a_limit_is_a_whole_number_within_the_bound() {
        assert_eq!(limit(None, 20, 500).unwrap(), 20);
        assert_eq!(limit(Some("1"), 20, 500).unwrap(), 1);
        assert_eq!(limit(Some("500"), 20, 500).unwrap(), 500);
        for bad in ["0", "501", "-1", "ten", ""] {
            assert_eq!(
                refused(limit(Some(bad), 20, 500)),
                (400, "FORMAT_ERROR", "limit".to_owned()),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_runs_and_payments_lists_refuse_a_bad_parameter_by_name() {
        let store = Store::temporary().unwrap();
        assert!(recent_runs(&store, None).unwrap().is_empty());
        assert_eq!(
            refused(recent_runs(&store, Some("501"))),
            (400, "FORMAT_ERROR", "limit".to_owned())
        );
        assert!(payments(&store, Some("ACTC"), Some("5000"))
            .unwrap()
            .is_empty());
        assert!(payments(&store, Some(""), None).unwrap().is_empty());
        assert_eq!(
            refused(payments(&store, Some("DONE"), Some("0"))),
            (400, "FORMAT_ERROR", "status".to_owned())
        );
        assert_eq!(
            refused(payments(&store, None, Some("5001"))),
            (400, "FORMAT_ERROR", "limit".to_owned())
        );
    }

    #[test]
    fn a_forced_outcome_names_a_known_code_and_a_known_payment() {
        assert_eq!(
            forced_outcome(Some("RJCT")).unwrap(),
            Some(ForcedOutcome::Rejected)
        );
        assert_eq!(
            forced_outcome(Some("ACCP")).unwrap(),
            Some(ForcedOutcome::LackingFunds)
        );
        assert_eq!(
            forced_outcome(Some("PDNG")).unwrap(),
            Some(ForcedOutcome::Pending)
        );
        assert_eq!(
            forced_outcome(Some("PART")).unwrap(),
            Some(ForcedOutcome::Partial)
        );
        assert_eq!(forced_outcome(None).unwrap(), None);
        let store = Store::temporary().unwrap();
        // The code is read before the payment is looked for.
        assert_eq!(
            refused(force_outcome(&store, "nope", Some("rjct"))),
            (400, "FORMAT_ERROR", "outcome".to_owned())
        );
        assert_eq!(
            refused(force_outcome(&store, "nope", Some("RJCT"))),
            (404, "RESOURCE_UNKNOWN", "paymentId".to_owned())
        );
    }
}
