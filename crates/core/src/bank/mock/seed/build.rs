//! The seed's building blocks: accounts, customers, balances and transactions made from the few
//! numbers each seeded record differs by, so [`super`] reads as the list of what is seeded.

// Amounts are grouped as øre (42_350_00 is 42 350.00 NOK).
#![allow(clippy::inconsistent_digit_grouping)]

use crate::bank::mock::derive_id;
use crate::bank::mock::model::*;
use crate::domain::{Bban, Currency, Iban};
use rust_decimal::Decimal;
use time::Date;

/// The first valid BBAN at or after a 10-digit stem (bank register number 1205).
pub(super) fn bban_at(stem: u64) -> Bban {
    (stem..)
        .find_map(|s| Bban::with_check_digit(&format!("{s:010}")))
        .expect("some stem has a check digit")
}

pub(super) fn nok(minor: i64) -> Money {
    Money {
        amount: Decimal::new(minor, 2),
        currency: Currency::NOK,
    }
}

pub(super) fn balances(pairs: &[(BalanceType, i64)]) -> Vec<Balance> {
    pairs
        .iter()
        .map(|(balance_type, minor)| Balance {
            balance_type: *balance_type,
            balance_amount: nok(*minor),
            credit_limit_included: None,
            reference_date: None,
        })
        .collect()
}

pub(super) fn account(
    owner: &Customer,
    stem: u64,
    name: &str,
    product: &str,
    cash_account_type: &str,
    balance: i64,
) -> Account {
    let bban = bban_at(stem);
    Account {
        id: derive_id("account", bban.as_str()),
        customer_id: owner.id.clone(),
        customer_number: owner.customer_number.clone(),
        iban: Iban::from_norwegian_bban(&bban).as_str().to_owned(),
        bban: bban.as_str().to_owned(),
        currency: Currency::NOK,
        name: name.to_owned(),
        product: product.to_owned(),
        cash_account_type: cash_account_type.to_owned(),
        status: AccountStatus::Enabled,
        credit_line: None,
        balances: balances(&[
            (BalanceType::ClosingBooked, balance),
            (BalanceType::InterimBooked, balance),
            (BalanceType::InterimAvailable, balance),
        ]),
        payments_allowed: true,
    }
}

pub(super) fn customer(number: &str, name: &str, customer_type: CustomerType) -> Customer {
    Customer {
        id: derive_id("customer", number),
        customer_number: number.to_owned(),
        name: name.to_owned(),
        customer_type,
    }
}

pub(super) fn reference(a: &Account) -> AccountRef {
    AccountRef {
        iban: a.iban.clone(),
        bban: a.bban.clone(),
    }
}

/// A booked transaction of `account` with `owner` on its side and the counterparty on the other.
#[allow(clippy::too_many_arguments)]
pub(super) fn booked(
    account: &Account,
    owner: &str,
    booking_date: Date,
    minor: i64,
    counterparty: (&str, AccountRef),
    remittance: &str,
    code: &str,
    purpose: &str,
) -> Transaction {
    let own = (owner.to_owned(), reference(account));
    let other = (counterparty.0.to_owned(), counterparty.1);
    let ((debtor_name, debtor_account), (creditor_name, creditor_account)) = if minor < 0 {
        (own, other)
    } else {
        (other, own)
    };
    Transaction {
        id: String::new(),
        account_id: account.id.clone(),
        sequence: 0,
        amount: nok(minor),
        booking_date,
        value_date: booking_date,
        remittance_information_unstructured: remittance.to_owned(),
        ultimate_debtor: debtor_name.clone(),
        ultimate_creditor: creditor_name.clone(),
        creditor_name,
        creditor_account,
        debtor_name,
        debtor_account,
        bank_transaction_code: code.to_owned(),
        purpose_code: purpose.to_owned(),
        source: TransactionSource::Seed,
    }
}

pub(super) fn card_transaction(
    card: &CardAccount,
    sequence: u64,
    status: CardTransactionStatus,
    date: Date,
    minor: i64,
    original: Option<Money>,
    mcc: &str,
) -> CardTransaction {
    let amount = nok(minor);
    CardTransaction {
        id: derive_id("card-transaction", &format!("{}/{sequence}", card.id)),
        card_account_id: card.id.clone(),
        sequence,
        status,
        booking_date: (status == CardTransactionStatus::Booked).then_some(date),
        transaction_date: date,
        original_amount: original.unwrap_or_else(|| amount.clone()),
        transaction_amount: amount,
        merchant_category_code: mcc.to_owned(),
    }
}
