//! How an account transaction is stored: under `<accountId>/<bookingDate>/<sequence>`
//! ([`Transaction::key_for`]), in a compact form (`crate::store::codec`) of about a third of its JSON. A batch run
//! over 100 000 payments writes 200 000 of them (a debit and a credit each), and their size decides
//! whether the run's writes stay in the store's page cache. Transactions stored as JSON by earlier
//! versions are read as they are ([`decode`] takes both forms).

use super::model::{AccountRef, Money, Transaction, TransactionSource};
use crate::domain::Currency;
use crate::store::codec::{is_json, DecodeError, IdRef, Reader, Writer};
use crate::store::{Record, StoreError};
use rust_decimal::Decimal;
use time::Date;

/// The first byte of a transaction in its compact form.
pub const FORMAT: u8 = 1;

const SOURCES: [TransactionSource; 3] = [
    TransactionSource::Seed,
    TransactionSource::Sandbox,
    TransactionSource::Payment,
];

impl Record for Transaction {
    const TREE: &'static str = "sandbox-transactions";
    fn key(&self) -> String {
        Self::key_for(&self.account_id, self.booking_date, self.sequence)
    }

    /// The compact form: batch runs write transactions by the hundred thousand.
    fn to_stored(&self) -> Result<Vec<u8>, StoreError> {
        Ok(encode(self))
    }

    fn from_stored(bytes: &[u8]) -> Result<Self, StoreError> {
        decode(bytes).map_err(|reason| StoreError::Damaged {
            tree: Self::TREE,
            reason,
        })
    }
}

/// What a transaction says besides who it is (id, account, number) and where it came from, borrowed:
/// the one list of these fields besides [`Transaction`]'s own, under the same names. The compact form is
/// written from it, and a batch run describes each booking with one, so that it can write its bookings
/// without building a [`Transaction`] (and its dozen strings) for each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransactionFields<'a> {
    /// Signed: negative is a debit of the account.
    pub amount: Decimal,
    pub currency: Currency,
    pub booking_date: Date,
    pub value_date: Date,
    pub remittance_information_unstructured: &'a str,
    pub creditor_name: &'a str,
    /// (IBAN, BBAN)
    pub creditor_account: (&'a str, &'a str),
    pub debtor_name: &'a str,
    /// (IBAN, BBAN)
    pub debtor_account: (&'a str, &'a str),
    pub bank_transaction_code: &'a str,
    pub ultimate_debtor: &'a str,
    pub ultimate_creditor: &'a str,
    pub purpose_code: &'a str,
}

impl<'a> TransactionFields<'a> {
    pub fn of(t: &'a Transaction) -> TransactionFields<'a> {
        TransactionFields {
            amount: t.amount.amount,
            currency: t.amount.currency,
            booking_date: t.booking_date,
            value_date: t.value_date,
            remittance_information_unstructured: &t.remittance_information_unstructured,
            creditor_name: &t.creditor_name,
            creditor_account: (&t.creditor_account.iban, &t.creditor_account.bban),
            debtor_name: &t.debtor_name,
            debtor_account: (&t.debtor_account.iban, &t.debtor_account.bban),
            bank_transaction_code: &t.bank_transaction_code,
            ultimate_debtor: &t.ultimate_debtor,
            ultimate_creditor: &t.ultimate_creditor,
            purpose_code: &t.purpose_code,
        }
    }
}

/// A whole transaction, borrowed: who it is, where it came from, and what it says.
pub struct TransactionRef<'a> {
    pub id: IdRef<'a>,
    pub account_id: IdRef<'a>,
    pub sequence: u64,
    pub source: TransactionSource,
    pub fields: TransactionFields<'a>,
}

impl<'a> TransactionRef<'a> {
    pub fn of(t: &'a Transaction) -> TransactionRef<'a> {
        TransactionRef {
            id: IdRef::Text(&t.id),
            account_id: IdRef::Text(&t.account_id),
            sequence: t.sequence,
            source: t.source,
            fields: TransactionFields::of(t),
        }
    }
}

fn read_account(r: &mut Reader) -> Result<AccountRef, DecodeError> {
    Ok(AccountRef {
        iban: r.str()?,
        bban: r.str()?,
    })
}

/// The compact bytes of a transaction.
pub fn encode(t: &Transaction) -> Vec<u8> {
    let mut w = Writer::new(FORMAT, 256);
    write_fields(&mut w, t);
    w.finish()
}

/// A transaction's fields, in the compact form's order (also the items of a booking block,
/// `super::booking_blocks`).
pub fn write_fields(w: &mut Writer, t: &Transaction) {
    write_ref(w, &TransactionRef::of(t));
}

/// [`write_fields`] from borrowed fields.
pub fn write_ref(w: &mut Writer, t: &TransactionRef) {
    w.id_ref(t.id);
    w.id_ref(t.account_id);
    write_after_account(w, t);
}

/// The fields after the id and the account id (a booking block writes its account's id itself).
pub fn write_after_account(w: &mut Writer, t: &TransactionRef) {
    w.u64(t.sequence);
    let f = &t.fields;
    w.decimal(f.amount);
    w.currency(f.currency);
    w.date(f.booking_date);
    w.date(f.value_date);
    w.str(f.remittance_information_unstructured);
    w.str(f.creditor_name);
    w.str(f.creditor_account.0);
    w.str(f.creditor_account.1);
    w.str(f.debtor_name);
    w.str(f.debtor_account.0);
    w.str(f.debtor_account.1);
    w.str(f.bank_transaction_code);
    w.str(f.ultimate_debtor);
    w.str(f.ultimate_creditor);
    w.str(f.purpose_code);
    let source = SOURCES.iter().position(|s| *s == t.source).expect("listed");
    w.u8(source as u8);
}

/// A stored transaction, in either form.
pub fn decode(bytes: &[u8]) -> Result<Transaction, DecodeError> {
    if is_json(bytes) {
        return serde_json::from_slice(bytes).map_err(|e| e.to_string());
    }
    let mut r = Reader::new(bytes, FORMAT)?;
    let transaction = read_fields(&mut r)?;
    r.end()?;
    Ok(transaction)
}

/// A transaction's fields as [`write_fields`] wrote them.
pub fn read_fields(r: &mut Reader) -> Result<Transaction, DecodeError> {
    Ok(Transaction {
        id: r.id()?,
        account_id: r.id()?,
        sequence: r.u64()?,
        amount: Money {
            amount: r.decimal()?,
            currency: r.currency()?,
        },
        booking_date: r.date()?,
        value_date: r.date()?,
        remittance_information_unstructured: r.str()?,
        creditor_name: r.str()?,
        creditor_account: read_account(r)?,
        debtor_name: r.str()?,
        debtor_account: read_account(r)?,
        bank_transaction_code: r.str()?,
        ultimate_debtor: r.str()?,
        ultimate_creditor: r.str()?,
        purpose_code: r.str()?,
        source: {
            let n = r.u8()?;
            *SOURCES
                .get(usize::from(n))
                .ok_or_else(|| format!("{n} is not a transaction source"))?
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;
    use time::macros::date;

    fn booking() -> Transaction {
        Transaction {
            id: "6f1d2c3b-4a5e-5f60-8192-a3b4c5d6e7f8".to_owned(),
            account_id: "0c1d2e3f-4a5b-5c6d-8e7f-8091a2b3c4d5".to_owned(),
            sequence: 123_456,
            amount: Money {
                amount: Decimal::from_str("-250.00").unwrap(),
                currency: Currency::NOK,
            },
            booking_date: date!(2026 - 06 - 01),
            value_date: date!(2026 - 06 - 02),
            remittance_information_unstructured: "Faktura 17 – ÆØÅ".to_owned(),
            creditor_name: "Ola Nordmann".to_owned(),
            creditor_account: AccountRef {
                iban: "NO2812051001018".to_owned(),
                bban: "12051001018".to_owned(),
            },
            debtor_name: "Kari Nordmann".to_owned(),
            debtor_account: AccountRef {
                iban: String::new(),
                bban: "12051000003".to_owned(),
            },
            bank_transaction_code: "PMNT-ICDT-DMCT".to_owned(),
            ultimate_debtor: "Kari Nordmann".to_owned(),
            ultimate_creditor: "Ola Nordmann".to_owned(),
            purpose_code: "OTHR".to_owned(),
            source: TransactionSource::Payment,
        }
    }

    #[test]
    fn a_transaction_reads_back_exactly_and_smaller_than_its_json() {
        let t = booking();
        let bytes = encode(&t);
        assert_eq!(decode(&bytes).unwrap(), t);
        let json = serde_json::to_vec(&t).unwrap();
        assert!(
            bytes.len() * 2 < json.len(),
            "{} against {}",
            bytes.len(),
            json.len()
        );
        assert_eq!(
            decode(&json).unwrap(),
            t,
            "JSON of earlier versions still reads"
        );
        assert!(decode(&bytes[..bytes.len() - 1]).is_err());
    }
}
