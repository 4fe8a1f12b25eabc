//! Payment and basket statuses (docs/reference/payments.md#sca-states-batch-runs) and the order that makes a basket's
//! single status "the worst case over all payments in it".

use serde::{Deserialize, Serialize};

/// ISO 20022 transaction status of a payment (the bank's list).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
pub enum PaymentStatus {
    /// Received: created, not yet authorised by the PSU.
    RCVD,
    /// Pending: authorised, waiting (e.g. for its execution date or a second signer).
    PDNG,
    /// Accepted technical validation: authorised and queued for the next batch run.
    ACTC,
    /// Accepted customer profile: validated, but funds are lacking for now (`fundsAvailable: false`).
    ACCP,
    /// Accepted with change.
    ACWC,
    /// Accepted without posting.
    ACWP,
    /// Accepted, settlement in process (instant payments in flight; periodic orders that are running).
    ACSP,
    /// Accepted, settlement completed: booked.
    ACSC,
    /// Rejected.
    RJCT,
    /// Cancelled (deleted before execution).
    CANC,
    /// Partially accepted (bulk: some payments booked, some rejected).
    PART,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        use PaymentStatus::*;
        match self {
            RCVD => "RCVD",
            PDNG => "PDNG",
            ACTC => "ACTC",
            ACCP => "ACCP",
            ACWC => "ACWC",
            ACWP => "ACWP",
            ACSP => "ACSP",
            ACSC => "ACSC",
            RJCT => "RJCT",
            CANC => "CANC",
            PART => "PART",
        }
    }

    /// No further change will happen.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            PaymentStatus::ACSC | PaymentStatus::RJCT | PaymentStatus::CANC | PaymentStatus::PART
        )
    }
}

/// A basket's status (RCVD, ACTC, PATC, RJCT: docs/reference/payments.md#sca-states-batch-runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BasketStatus {
    /// Received: no payment authorised yet.
    RCVD,
    /// Accepted technical validation: every payment authorised and accepted (or further).
    ACTC,
    /// Partially accepted technical correct: some payments accepted, some still to authorise or rejected.
    PATC,
    /// Rejected: every payment rejected or cancelled.
    RJCT,
}

impl BasketStatus {
    /// The worst case over the payments (docs/reference/payments.md#sca-states-batch-runs). Cancelled (deleted)
    /// payments left the basket and do not count, unless nothing else is left. Worst first: RJCT when every payment
    /// is rejected or cancelled; PATC when accepted payments are mixed with rejected or not yet authorised ones;
    /// RCVD when none is authorised yet; ACTC when every payment is authorised and none rejected.
    pub fn worst_case(statuses: &[PaymentStatus]) -> BasketStatus {
        use PaymentStatus::*;
        let live: Vec<PaymentStatus> = statuses.iter().copied().filter(|s| *s != CANC).collect();
        if live.is_empty() {
            return if statuses.is_empty() {
                BasketStatus::RCVD
            } else {
                BasketStatus::RJCT
            };
        }
        let rejected = live.iter().filter(|s| **s == RJCT).count();
        let received = live.iter().filter(|s| **s == RCVD).count();
        if rejected == live.len() {
            BasketStatus::RJCT
        } else if received == live.len() {
            BasketStatus::RCVD
        } else if rejected > 0 || received > 0 {
            BasketStatus::PATC
        } else {
            BasketStatus::ACTC
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BasketStatus::RCVD => "RCVD",
            BasketStatus::ACTC => "ACTC",
            BasketStatus::PATC => "PATC",
            BasketStatus::RJCT => "RJCT",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::BasketStatus as B;
    use super::PaymentStatus::*;

    #[test]
    fn a_basket_shows_the_worst_case_over_its_payments() {
        assert_eq!(B::worst_case(&[RCVD, RCVD]), B::RCVD);
        assert_eq!(B::worst_case(&[ACTC, ACSC, ACCP]), B::ACTC);
        assert_eq!(B::worst_case(&[ACSC, RJCT]), B::PATC);
        assert_eq!(B::worst_case(&[ACTC, RCVD]), B::PATC);
        assert_eq!(B::worst_case(&[RJCT, CANC]), B::RJCT);
        assert_eq!(
            B::worst_case(&[RCVD, CANC]),
            B::RCVD,
            "a deleted payment left the basket"
        );
        assert_eq!(B::worst_case(&[ACSC, CANC]), B::ACTC);
        assert_eq!(B::worst_case(&[CANC, CANC]), B::RJCT);
    }
}
