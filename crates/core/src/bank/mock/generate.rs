//! Transactions made up in bulk for a mock account (the workbench's "generate N over a date range"):
//! plausible Norwegian shop purchases and the odd salary, spread evenly over the range, deterministic for
//! the same account, count and range, and booked like any other transaction (one atomic batch).

use super::holdings;
use super::model::Account;
use super::model::{AccountRef, Money, Transaction, TransactionSource};
use crate::domain::refusal::{CoreResult, Refusal};
use crate::store::Store;
use rust_decimal::Decimal;
use time::Date;

/// The most one request makes.
pub const MAX_COUNT: usize = 10_000;

const SHOPS: [(&str, &str); 8] = [
    ("REMA 1000", "5411"),
    ("Kiwi", "5411"),
    ("Vinmonopolet", "5921"),
    ("Narvesen", "5994"),
    ("Ruter", "4111"),
    ("Circle K", "5541"),
    ("Elkjøp", "5732"),
    ("Vy", "4112"),
];

/// The range a request sent as text, `fromDate` and `toDate`: each a `YYYY-MM-DD` date, else 400
/// FORMAT_ERROR at the one that is not (docs/workbench-api.md#sandbox-data).
pub fn range(from_date: &str, to_date: &str) -> CoreResult<(Date, Date)> {
    Ok((date("fromDate", from_date)?, date("toDate", to_date)?))
}

fn date(path: &str, text: &str) -> CoreResult<Date> {
    Date::parse(text, &time::format_description::well_known::Iso8601::DATE)
        .map_err(|_| Refusal::format(path, format!("{path} '{text}' is not a date (YYYY-MM-DD)")))
}

/// Makes and books `count` transactions on the account between `from` and `to` (both included).
pub fn transactions(
    store: &Store,
    account_id: &str,
    count: usize,
    from: Date,
    to: Date,
) -> CoreResult<Vec<Transaction>> {
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(Refusal::format(
            "count",
            format!("count must be from 1 to {MAX_COUNT}"),
        ));
    }
    if to < from {
        return Err(Refusal::format(
            "toDate",
            "toDate must not be before fromDate",
        ));
    }
    let account = holdings::by_id::<Account>(store, "mockAccountId", account_id)?;
    let days = (to - from).whole_days();
    let own = AccountRef {
        iban: account.iban.clone(),
        bban: account.bban.clone(),
    };
    let none = AccountRef {
        iban: String::new(),
        bban: String::new(),
    };
    let made: Vec<Transaction> = (0..count)
        .map(|i| {
            let day = from + time::Duration::days(days * i as i64 / count.max(1) as i64);
            // A small deterministic mix: a salary every 25th, purchases otherwise.
            let seed = (i as i64 * 7919 + account.bban.len() as i64 * 31) % 997;
            let (amount, counterparty, code) = if i % 25 == 24 {
                (
                    Decimal::new(3_250_000, 2),
                    "Arbeidsgiver AS",
                    "PMNT-RCDT-SALA",
                )
            } else {
                let (shop, _) = SHOPS[i % SHOPS.len()];
                (
                    Decimal::new(-(1_500 + seed * 83), 2),
                    shop,
                    "PMNT-CCRD-POSD",
                )
            };
            let incoming = amount.is_sign_positive();
            Transaction {
                id: String::new(),
                account_id: account.id.clone(),
                sequence: 0,
                amount: Money {
                    amount,
                    currency: account.currency,
                },
                booking_date: day,
                value_date: day,
                remittance_information_unstructured: if incoming {
                    "Lønn".to_owned()
                } else {
                    format!("Varekjøp {counterparty}")
                },
                creditor_name: if incoming {
                    String::new()
                } else {
                    counterparty.to_owned()
                },
                creditor_account: if incoming { own.clone() } else { none.clone() },
                debtor_name: if incoming {
                    counterparty.to_owned()
                } else {
                    String::new()
                },
                debtor_account: if incoming { none.clone() } else { own.clone() },
                bank_transaction_code: code.to_owned(),
                ultimate_debtor: String::new(),
                ultimate_creditor: String::new(),
                purpose_code: if incoming { "SALA" } else { "OTHR" }.to_owned(),
                source: TransactionSource::Sandbox,
            }
        })
        .collect();
    super::transactions::append(store, made)
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn generated_transactions_spread_over_the_range_and_are_booked() {
        let store = Store::temporary().unwrap();
        crate::bank::mock::seed::initialize(&store, date!(2026 - 06 - 01)).unwrap();
        let account = store
            .table::<crate::bank::mock::model::Account>()
            .unwrap()
            .list()
            .unwrap()[0]
            .clone();
        let made = transactions(
            &store,
            &account.id,
            50,
            date!(2026 - 01 - 01),
            date!(2026 - 03 - 31),
        )
        .unwrap();
        assert_eq!(made.len(), 50);
        assert!(made
            .iter()
            .all(|t| t.booking_date >= date!(2026 - 01 - 01)
                && t.booking_date <= date!(2026 - 03 - 31)));
        assert!(made.windows(2).all(|w| w[0].sequence < w[1].sequence));
        let refused = transactions(
            &store,
            &account.id,
            0,
            date!(2026 - 01 - 01),
            date!(2026 - 01 - 02),
        )
        .unwrap_err();
        assert_eq!(refused.path.as_deref(), Some("count"));
    }

    #[test]
    fn the_range_is_two_dates_each_refused_by_name() {
        assert_eq!(
            range("2026-01-01", "2026-03-31").unwrap(),
            (date!(2026 - 01 - 01), date!(2026 - 03 - 31))
        );
        for (from, to, at) in [
            ("2026-1-1", "2026-03-31", "fromDate"),
            ("2026-01-01", "31.03.2026", "toDate"),
            ("", "", "fromDate"),
        ] {
            let refused = range(from, to).unwrap_err();
            assert_eq!(
                (
                    refused.status(),
                    refused.code.as_str(),
                    refused.path.as_deref()
                ),
                (400, "FORMAT_ERROR", Some(at))
            );
        }
    }
}
