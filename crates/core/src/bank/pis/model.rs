//! The payment and basket records: what a validated payment order holds, which product and service it
//! came through, and where it stands. Validation (`validation`) produces [`PaymentOrder`]s; the service
//! stores [`Payment`]s; the batch simulator executes them.

use super::status::PaymentStatus;
use crate::domain::{Country, Currency};
use crate::store::Record;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use time::{Date, OffsetDateTime};

/// The payment service in the path: `/v1/payments`, `/v1/periodic-payments`, `/v1/bulk-payments`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaymentService {
    Payments,
    PeriodicPayments,
    BulkPayments,
}

impl PaymentService {
    pub fn path(self) -> &'static str {
        match self {
            PaymentService::Payments => "payments",
            PaymentService::PeriodicPayments => "periodic-payments",
            PaymentService::BulkPayments => "bulk-payments",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        [
            PaymentService::Payments,
            PaymentService::PeriodicPayments,
            PaymentService::BulkPayments,
        ]
        .into_iter()
        .find(|s| s.path() == text)
    }
}

/// The payment products (the path segment after the service).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PaymentProduct {
    /// Norwegian domestic credit transfer, executed in the batch runs. NCBCT in basket terms.
    NorwegianDomesticCreditTransfers,
    /// Instant ("straks") Norwegian domestic credit transfer, executed at once after authorisation.
    InstantNorwegianDomesticCreditTransfersStraks,
    /// SEPA credit transfer in EUR (structured addresses, creditor agent BIC).
    SepaCreditTransfers,
    /// Cross-border (SWIFT) credit transfer, any currency (structured addresses, BIC, serviceLevel).
    CrossBorderCreditTransfers,
}

impl PaymentProduct {
    pub const ALL: [PaymentProduct; 4] = [
        PaymentProduct::NorwegianDomesticCreditTransfers,
        PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks,
        PaymentProduct::SepaCreditTransfers,
        PaymentProduct::CrossBorderCreditTransfers,
    ];

    pub fn path(self) -> &'static str {
        match self {
            PaymentProduct::NorwegianDomesticCreditTransfers => {
                "norwegian-domestic-credit-transfers"
            }
            PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks => {
                "instant-norwegian-domestic-credit-transfers-straks"
            }
            PaymentProduct::SepaCreditTransfers => "sepa-credit-transfers",
            PaymentProduct::CrossBorderCreditTransfers => "cross-border-credit-transfers",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        PaymentProduct::ALL.into_iter().find(|p| p.path() == text)
    }

    /// The product a path names, or 404 PRODUCT_UNKNOWN listing the products offered
    /// (docs/reference/payments.md#endpoints-and-products).
    pub fn offered(text: &str) -> Result<Self, crate::domain::refusal::Refusal> {
        Self::parse(text).ok_or_else(|| {
            crate::domain::refusal::Refusal::new(
                crate::domain::refusal::Code::ProductUnknown,
                Some("payment-product"),
                format!(
                    "Payment product '{text}' is not offered. Products: {}.",
                    PaymentProduct::ALL.map(|p| p.path()).join(", ")
                ),
            )
        })
    }

    /// Instant payments execute at authorisation, not in a batch run.
    pub fn is_instant(self) -> bool {
        self == PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks
    }

    /// Domestic Norwegian products (the bank's known issue concerns these, docs/interface.md#known-issues-reproduced).
    pub fn is_domestic(self) -> bool {
        matches!(
            self,
            PaymentProduct::NorwegianDomesticCreditTransfers
                | PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks
        )
    }

    /// Payments over the SWIFT network or SEPA, where the structured-address rule applies.
    pub fn needs_structured_address(self) -> bool {
        !self.is_domestic()
    }
}

/// An amount of money in a currency, exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Money {
    #[serde(with = "rust_decimal::serde::str")]
    pub amount: Decimal,
    pub currency: Currency,
}

/// A creditor's (or other party's) account: Norwegian BBAN or an IBAN.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CreditorAccount {
    pub bban: Option<String>,
    pub iban: Option<String>,
    pub currency: Currency,
}

/// The debtor account: an ordinary account by BBAN, or a card account (the bank's `other` extension,
/// docs/reference/payments.md#validation-duplicates-fees).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum DebtorAccount {
    Bban {
        bban: String,
        currency: Currency,
    },
    /// `other.identification` with `schemeNameProprietary: creditCardAccount`: the card account's
    /// `relatedAccount` reference.
    Card {
        identification: String,
        currency: Currency,
    },
}

impl DebtorAccount {
    pub fn currency(&self) -> Currency {
        match self {
            DebtorAccount::Bban { currency, .. } | DebtorAccount::Card { currency, .. } => {
                *currency
            }
        }
    }
}

/// A postal address (creditorAddress). `town_name` holds `city` too when only that was given.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Address {
    pub street: Option<String>,
    pub building_number: Option<String>,
    pub postal_code: Option<String>,
    pub town_name: Option<String>,
    pub country: Option<Country>,
}

/// One structured reference (KID/OCR or other).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StructuredReference {
    pub reference: String,
    pub reference_type: Option<String>,
    pub reference_issuer: Option<String>,
}

/// Remittance information: free text, or structured references (mutually exclusive, docs/interface.md#payments).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Remittance {
    Unstructured {
        text: String,
    },
    /// `remittanceInformationStructured`, or the entries of `remittanceInformationStructuredArray`.
    Structured {
        references: Vec<StructuredReference>,
        as_array: bool,
    },
}

/// A validated payment order: one credit transfer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentOrder {
    pub instructed_amount: Money,
    pub creditor_name: String,
    pub creditor_account: CreditorAccount,
    pub creditor_address: Address,
    /// BIC of the creditor's bank (SEPA and cross-border).
    pub creditor_agent: Option<String>,
    pub debtor_account: DebtorAccount,
    pub ultimate_debtor: Option<String>,
    pub purpose_code: Option<String>,
    pub remittance: Option<Remittance>,
    /// requestedExecutionDate; None means as soon as possible.
    pub requested_execution_date: Option<Date>,
    /// serviceLevel for cross-border payments (e.g. URGP), docs/reference/payments.md#endpoints-and-products.
    pub service_level: Option<String>,
}

/// How often a periodic payment runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub enum Frequency {
    Daily,
    Weekly,
    EveryTwoWeeks,
    Monthly,
    EveryTwoMonths,
    Quarterly,
    SemiAnnual,
    Annual,
}

/// The standing-order part of a periodic payment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Schedule {
    pub start_date: Date,
    pub end_date: Option<Date>,
    pub frequency: Frequency,
    /// 1..=31 for monthly frequencies (capped to the month's last day).
    pub day_of_execution: Option<u8>,
}

/// A validated payment request: the orders (one; several for bulk), and the schedule for periodic ones.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ValidatedPayment {
    pub service: PaymentService,
    pub product: PaymentProduct,
    pub orders: Vec<PaymentOrder>,
    pub schedule: Option<Schedule>,
    /// Bulk: book as one debit.
    pub batch_booking_preferred: Option<bool>,
}

/// What happened to one order at execution.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Execution {
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    /// Index into `orders`.
    pub order: usize,
    pub status: PaymentStatus,
    pub reason: Option<String>,
    /// The booked transaction on the debtor account, when booked.
    pub transaction_id: Option<String>,
}

/// A status change, for the status history and the event stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusChange {
    #[serde(with = "time::serde::rfc3339")]
    pub at: OffsetDateTime,
    pub status: PaymentStatus,
    pub reason: Option<String>,
}

/// A way for testers to make a payment end in a chosen state (see `payments::forced`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ForcedOutcome {
    Rejected,
    LackingFunds,
    Pending,
    Partial,
}

/// A stored payment. Its key and stored form (`Record`) are in `super::codec`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Payment {
    pub id: String,
    pub tpp_id: String,
    /// The PSU (customer) the payment is made for: the account's owner or a person acting for it under a
    /// corporate agreement. Empty until the payment's SCA identifies the PSU in a single-SCA journey.
    pub customer_id: String,
    /// The sandbox account (or card account) debited.
    pub debtor_account_id: String,
    pub payment: ValidatedPayment,
    pub status: PaymentStatus,
    /// Set when a funds check was made (status responses carry fundsAvailable,
    /// docs/reference/payments.md#sca-states-batch-runs).
    pub funds_available: Option<bool>,
    pub fee: Option<Money>,
    pub forced: Option<ForcedOutcome>,
    pub basket_id: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(default, with = "time::serde::rfc3339::option")]
    pub authorised_at: Option<OffsetDateTime>,
    /// Set only by earlier versions, whose batch runs executed standing orders: the next date an instance
    /// was due. Batch runs no longer process periodic payments (docs/reference/payments.md#periodic-payments), so
    /// nothing sets it now; kept so that payments stored then still read (and show it) as they were.
    pub next_execution_date: Option<Date>,
    pub executions: Vec<Execution>,
    pub history: Vec<StatusChange>,
}

impl Payment {
    /// Moves to `status`, recording the change (no-op when unchanged).
    pub fn set_status(
        &mut self,
        status: PaymentStatus,
        reason: Option<String>,
        at: OffsetDateTime,
    ) {
        if self.status != status {
            self.status = status;
            self.history.push(StatusChange { at, status, reason });
        }
    }

    /// The total instructed amount over all orders.
    pub fn total(&self) -> Decimal {
        self.payment
            .orders
            .iter()
            .map(|o| o.instructed_amount.amount)
            .sum()
    }
}

/// A signing basket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Basket {
    pub id: String,
    pub tpp_id: String,
    pub customer_id: String,
    pub payment_ids: Vec<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    pub deleted: bool,
}

impl Record for Basket {
    const TREE: &'static str = "signing-baskets";
    fn key(&self) -> String {
        self.id.clone()
    }
}
