//! The sandbox tariff, and the fee-information operation for instant payments
//! (`POST /v1/payments/instant-norwegian-credit-transfers-straks/fee-information`,
//! docs/reference/payments.md#endpoints-and-products; the bank does not show its shapes, so the sandbox defines them
//! here).
//!
//! Tariff (per order, charged in NOK to the debtor; a bulk payment pays the sum of its orders):
//!
//! | Product | Fee |
//! |---|---|
//! | norwegian-domestic-credit-transfers | free |
//! | instant-norwegian-domestic-credit-transfers-straks | free below 10 000.00 NOK, 5.00 NOK from 10 000.00 NOK |
//! | sepa-credit-transfers | free |
//! | cross-border-credit-transfers | 25.00 NOK (currency conversion included) |
//!
//! Fee information request:
//! `{"instructedAmount": {"amount": "12000.00", "currency": "NOK"},
//!   "debtorAccount": {"bban": "12345678903", "currency": "NOK"},
//!   "creditorAccount": {"bban": "86011117947", "currency": "NOK"}}`,
//! validated with the instant product's rules (NOK only, Norwegian BBANs with valid check digits;
//! `debtorAccount.other` for a card account is accepted too). Response:
//! `{"transactionFeeIndicator": true, "transactionFees": {"amount": "5.00", "currency": "NOK"}}`;
//! a free payment answers `transactionFeeIndicator: false` with `transactionFees` 0.00 NOK, so the
//! client always gets an amount to show.

use super::account::{creditor_account, debtor_account};
use super::amount::instructed_amount;
use super::fields::as_object;
use crate::bank::pis::model::{Money, PaymentOrder, PaymentProduct};
use crate::domain::refusal::Refusal;
use crate::domain::Currency;
use rust_decimal::Decimal;
use serde_json::Value;
use time::OffsetDateTime;

/// Instant payments from this amount (NOK) on cost [`INSTANT_FEE_NOK`].
pub const INSTANT_FEE_THRESHOLD_NOK: Decimal = Decimal::from_parts(10_000, 0, 0, false, 0);
/// The instant fee: 5.00 NOK.
pub const INSTANT_FEE_NOK: Decimal = Decimal::from_parts(500, 0, 0, false, 2);
/// The cross-border fee: 25.00 NOK.
pub const CROSS_BORDER_FEE_NOK: Decimal = Decimal::from_parts(2500, 0, 0, false, 2);

/// The fee of a payment: the sum over its orders (a bulk pays per order), None when free.
pub fn total(product: PaymentProduct, orders: &[PaymentOrder]) -> Option<Money> {
    let fees: Vec<_> = orders
        .iter()
        .filter_map(|order| fee(product, order))
        .collect();
    let first = fees.first()?;
    Some(Money {
        amount: fees.iter().map(|f| f.amount).sum(),
        currency: first.currency,
    })
}

/// The fee one order of `product` costs, `None` when it is free (the creation response then
/// carries `transactionFeeIndicator: false` and no `transactionFees`).
pub fn fee(product: PaymentProduct, order: &PaymentOrder) -> Option<Money> {
    tariff(product, &order.instructed_amount)
}

/// The tariff of the module documentation, from the product and the instructed amount.
fn tariff(product: PaymentProduct, instructed: &Money) -> Option<Money> {
    let nok = |amount| {
        Some(Money {
            amount,
            currency: Currency::NOK,
        })
    };
    match product {
        PaymentProduct::NorwegianDomesticCreditTransfers | PaymentProduct::SepaCreditTransfers => {
            None
        }
        PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks => {
            // Instant payments are NOK-only, so the amount compares directly with the threshold.
            if instructed.amount >= INSTANT_FEE_THRESHOLD_NOK {
                nok(INSTANT_FEE_NOK)
            } else {
                None
            }
        }
        PaymentProduct::CrossBorderCreditTransfers => nok(CROSS_BORDER_FEE_NOK),
    }
}

/// The amount as the API writes it: exactly the currency's minor units of fraction digits.
pub fn api_amount(money: &Money) -> String {
    let mut amount = money.amount;
    amount.rescale(money.currency.minor_units());
    amount.to_string()
}

/// Answers a fee-information request for an instant payment (shapes in the module documentation).
///
/// `now` is taken so that dated tariff changes can be simulated like every other dated rule; the
/// current tariff has none.
/// The answer to a fee-information request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeeInformation {
    /// Whether the payment would carry a fee.
    pub transaction_fee_indicator: bool,
    /// The fee (zero when there is none).
    pub transaction_fees: FeeAmount,
}

/// An amount as the interface writes it: a string with the currency's minor units.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
pub struct FeeAmount {
    pub amount: String,
    pub currency: Currency,
}

pub fn fee_information(body: &Value, now: OffsetDateTime) -> Result<FeeInformation, Refusal> {
    let _ = now;
    let product = PaymentProduct::InstantNorwegianDomesticCreditTransfersStraks;
    let object = as_object(body, "(body)")?;
    let instructed = instructed_amount(object, "", product)?;
    debtor_account(object, "")?;
    creditor_account(object, "", product, &instructed)?;
    let fee = tariff(product, &instructed);
    let shown = fee.unwrap_or(Money {
        amount: Decimal::ZERO,
        currency: Currency::NOK,
    });
    Ok(FeeInformation {
        transaction_fee_indicator: fee.is_some(),
        transaction_fees: FeeAmount {
            amount: api_amount(&shown),
            currency: shown.currency,
        },
    })
}
