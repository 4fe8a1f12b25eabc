//! Payment bookings stored per run: every transaction one batch run (or one instant execution) booked on
//! one account, in one record keyed `<accountId>/<first sequence>`. A run over 100 000 payments books
//! 200 000 transactions; as records of their own they were most of the run's writes (sled's cost is per
//! record), as blocks they are a few large values. Listings read them beside the transactions stored one
//! by one (seeded, posted through the mock-data API, or booked by earlier versions): [`of_account`]
//! merges both in listing order.

use super::model::Transaction;
use super::transaction_codec::{read_fields, write_after_account, write_fields, TransactionRef};
use crate::store::codec::{is_json, DecodeError, IdRef, Reader, Writer};
use crate::store::{Record, Store, StoreError};
use serde::{Deserialize, Serialize};

/// The first byte of a block in its compact form.
pub const FORMAT: u8 = 1;

/// The bookings of one run on one account, in the order they were numbered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BookingBlock {
    /// An account's or a card account's id (payments debited from a card book under the card's id).
    pub account_id: String,
    /// The sequence of the block's first transaction on the account: the key's order is the order of
    /// recording.
    pub first_sequence: u64,
    pub transactions: Vec<Transaction>,
}

impl Record for BookingBlock {
    const TREE: &'static str = "sandbox-payment-bookings";
    fn key(&self) -> String {
        format!("{}/{:012}", self.account_id, self.first_sequence)
    }

    fn to_stored(&self) -> Result<Vec<u8>, StoreError> {
        let mut block = BlockWriter::new(&self.account_id, self.first_sequence);
        for t in &self.transactions {
            block.push_transaction(t);
        }
        Ok(block.finish().1)
    }

    fn from_stored(bytes: &[u8]) -> Result<Self, StoreError> {
        let damaged = |reason: DecodeError| StoreError::Damaged {
            tree: Self::TREE,
            reason,
        };
        if is_json(bytes) {
            return serde_json::from_slice(bytes).map_err(|e| damaged(e.to_string()));
        }
        let read = || -> Result<BookingBlock, DecodeError> {
            let mut r = Reader::new(bytes, FORMAT)?;
            let block = BookingBlock {
                account_id: r.id()?,
                first_sequence: r.u64()?,
                transactions: r.list(read_fields)?,
            };
            r.end()?;
            Ok(block)
        };
        read().map_err(damaged)
    }
}

/// A block written transaction by transaction, straight into its stored form (how a batch run writes
/// its bookings, without building a [`Transaction`] for each).
pub struct BlockWriter {
    account_id: String,
    /// The account id as each transaction of the block writes it (worked out once).
    account: IdRefOwned,
    first_sequence: u64,
    count: u64,
    items: Writer,
}

impl BlockWriter {
    pub fn new(account_id: &str, first_sequence: u64) -> BlockWriter {
        BlockWriter {
            account_id: account_id.to_owned(),
            account: match IdRef::of(account_id) {
                IdRef::Uuid(bytes) => IdRefOwned::Uuid(bytes),
                IdRef::Text(_) => IdRefOwned::Text,
            },
            first_sequence,
            count: 0,
            items: Writer::continuing(Vec::with_capacity(4096)),
        }
    }

    /// Adds the next transaction (of this block's account, in numbering order; its `account_id` is not
    /// read: the block writes its own, worked out once).
    pub fn push(&mut self, t: &TransactionRef) {
        self.items.id_ref(t.id);
        match self.account {
            IdRefOwned::Uuid(bytes) => self.items.id_ref(IdRef::Uuid(bytes)),
            IdRefOwned::Text => self.items.id(&self.account_id),
        }
        write_after_account(&mut self.items, t);
        self.count += 1;
    }

    fn push_transaction(&mut self, t: &Transaction) {
        write_fields(&mut self.items, t);
        self.count += 1;
    }

    /// The block's key and stored bytes: the header, then the transactions as a counted list.
    pub fn finish(self) -> (String, Vec<u8>) {
        let items = self.items.finish();
        let mut w = Writer::new(FORMAT, 32 + items.len());
        w.id(&self.account_id);
        w.u64(self.first_sequence);
        w.u64(self.count);
        w.raw(&items);
        let key = format!("{}/{:012}", self.account_id, self.first_sequence);
        (key, w.finish())
    }
}

/// How a block writes its account's id: as a UUID's bytes, or as its text (kept in the block).
enum IdRefOwned {
    Uuid([u8; 16]),
    Text,
}

/// Groups numbered bookings into one block per account, each in numbering order.
pub fn blocks_of(bookings: Vec<Transaction>) -> Vec<BookingBlock> {
    let mut blocks: Vec<BookingBlock> = Vec::new();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for booking in bookings {
        let at = match index.get(booking.account_id.as_str()) {
            Some(&at) => at,
            None => {
                index.insert(booking.account_id.clone(), blocks.len());
                blocks.push(BookingBlock {
                    account_id: booking.account_id.clone(),
                    first_sequence: booking.sequence,
                    transactions: Vec::new(),
                });
                blocks.len() - 1
            }
        };
        blocks[at].transactions.push(booking);
    }
    blocks
}

/// The payment bookings of an account kept in blocks, in order of recording.
pub fn of_account(store: &Store, account_id: &str) -> Result<Vec<Transaction>, StoreError> {
    Ok(store
        .table::<BookingBlock>()?
        .scan_prefix(&format!("{account_id}/"))?
        .into_iter()
        .flat_map(|block| block.transactions)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bank::mock::model::{AccountRef, Money, TransactionSource};
    use crate::domain::Currency;
    use rust_decimal::Decimal;
    use time::macros::date;

    fn booking(account: &str, sequence: u64, minor: i64) -> Transaction {
        let party = AccountRef {
            iban: "NO2812051001018".to_owned(),
            bban: "12051001018".to_owned(),
        };
        Transaction {
            id: format!("t-{account}-{sequence}"),
            account_id: account.to_owned(),
            sequence,
            amount: Money {
                amount: Decimal::new(minor, 2),
                currency: Currency::NOK,
            },
            booking_date: date!(2026 - 06 - 01),
            value_date: date!(2026 - 06 - 01),
            remittance_information_unstructured: "Faktura".to_owned(),
            creditor_name: "Ola".to_owned(),
            creditor_account: party.clone(),
            debtor_name: "Kari".to_owned(),
            debtor_account: party,
            bank_transaction_code: "PMNT-ICDT-DMCT".to_owned(),
            ultimate_debtor: "Kari".to_owned(),
            ultimate_creditor: "Ola".to_owned(),
            purpose_code: "OTHR".to_owned(),
            source: TransactionSource::Payment,
        }
    }

    #[test]
    fn bookings_group_per_account_in_order_and_read_back() {
        let blocks = blocks_of(vec![
            booking("a", 7, -100),
            booking("b", 3, 100),
            booking("a", 8, -200),
        ]);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0].key(), "a/000000000007");
        assert_eq!(
            blocks[0]
                .transactions
                .iter()
                .map(|t| t.sequence)
                .collect::<Vec<_>>(),
            [7, 8]
        );
        for block in &blocks {
            let stored = block.to_stored().unwrap();
            assert_eq!(&BookingBlock::from_stored(&stored).unwrap(), block);
            let json = serde_json::to_vec(block).unwrap();
            assert_eq!(&BookingBlock::from_stored(&json).unwrap(), block);
        }
        let stored = blocks[0].to_stored().unwrap();
        assert!(BookingBlock::from_stored(&stored[..stored.len() - 1]).is_err());
    }

    #[test]
    fn an_accounts_blocks_list_in_order_of_recording() {
        let store = Store::temporary().unwrap();
        let table = store.table::<BookingBlock>().unwrap();
        table
            .insert_many(&blocks_of(vec![booking("a", 12, 1), booking("a", 13, 2)]))
            .unwrap();
        table
            .insert_many(&blocks_of(vec![booking("a", 2, 3), booking("ab", 1, 4)]))
            .unwrap();
        let sequences: Vec<u64> = of_account(&store, "a")
            .unwrap()
            .iter()
            .map(|t| t.sequence)
            .collect();
        assert_eq!(
            sequences,
            [2, 12, 13],
            "not another account's sharing a prefix"
        );
    }
}
