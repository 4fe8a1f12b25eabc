//! The transactions a run (or an instant execution) books, written straight into their stored form as
//! they are made: each numbered with its account's next sequence and given its id on the spot (so the
//! execution that made it names it at once), and appended to its account's block
//! (`sandbox::booking_blocks`: one record per account and run). A run over 100 000 payments books
//! 200 000 transactions; building a [`Transaction`](crate::bank::mock::model::Transaction) with a dozen
//! strings for each, encoding and freeing them was a third of such a run.

use crate::bank::mock::booking_blocks::{BlockWriter, BookingBlock};
use crate::bank::mock::model::TransactionSource;
use crate::bank::mock::transaction_codec::{TransactionFields, TransactionRef};
use crate::bank::mock::transactions::{last_sequence, SequenceCounter};
use crate::domain::refusal::Refusal;
use crate::store::codec::IdRef;
use crate::store::{RawRecords, Record, Store};
use std::collections::HashMap;
use uuid::Uuid;

/// The bookings of one run so far.
pub struct Bookings {
    /// The last sequence given on each account and card account (loaded with the ledger).
    last: HashMap<String, u64>,
    blocks: Vec<BlockWriter>,
    block_of: HashMap<String, usize>,
}

/// What the bookings add to a run's writes.
pub struct BookingWrites {
    /// One block per account booked on.
    pub blocks: RawRecords,
    /// The new last sequence of each of those accounts.
    pub counters: Vec<SequenceCounter>,
}

impl Bookings {
    /// Ready to book on the accounts `ids` (every account and card account of the ledger).
    pub fn load<'a>(
        store: &Store,
        ids: impl Iterator<Item = &'a String>,
    ) -> Result<Bookings, Refusal> {
        let mut last: HashMap<String, u64> = store
            .table::<SequenceCounter>()?
            .list()?
            .into_iter()
            .map(|c| (c.account_id, c.last))
            .collect();
        for id in ids {
            if !last.contains_key(id) {
                // No counter: an account with no transaction yet, or data from before counters.
                last.insert(id.clone(), last_sequence(store, id)?);
            }
        }
        Ok(Bookings {
            last,
            blocks: Vec::new(),
            block_of: HashMap::new(),
        })
    }

    /// Numbers one transaction (what it says: `booking`) on `account_id` and writes it into the account's block; returns its id
    /// (derived from account and sequence, as every sandbox transaction's), as a UUID: the caller makes
    /// its text only where it is needed (a debit, which its execution names).
    pub fn record(&mut self, account_id: &str, booking: &TransactionFields) -> Uuid {
        let sequence = match self.last.get_mut(account_id) {
            Some(last) => {
                *last += 1;
                *last
            }
            None => {
                self.last.insert(account_id.to_owned(), 1);
                1
            }
        };
        let id = crate::bank::mock::derive_uuid("transaction", &format!("{account_id}/{sequence}"));
        let at = match self.block_of.get(account_id) {
            Some(&at) => at,
            None => {
                self.block_of
                    .insert(account_id.to_owned(), self.blocks.len());
                self.blocks.push(BlockWriter::new(account_id, sequence));
                self.blocks.len() - 1
            }
        };
        self.blocks[at].push(&TransactionRef {
            id: IdRef::Uuid(*id.as_bytes()),
            account_id: IdRef::Text(account_id),
            sequence,
            source: TransactionSource::Payment,
            fields: *booking,
        });
        id
    }

    /// The blocks and counters to write.
    pub fn into_writes(self) -> BookingWrites {
        let counters = self
            .block_of
            .keys()
            .map(|account_id| SequenceCounter {
                account_id: account_id.clone(),
                last: self.last[account_id],
            })
            .collect();
        let blocks = self
            .blocks
            .into_iter()
            .map(|block| {
                let (key, bytes) = block.finish();
                (key.into_bytes(), bytes)
            })
            .collect();
        BookingWrites { blocks, counters }
    }

    /// Writes the blocks and counters inside the caller's atomic operation.
    pub fn write(self, store: &Store) -> Result<(), Refusal> {
        let writes = self.into_writes();
        store
            .table::<SequenceCounter>()?
            .insert_many(&writes.counters)?;
        store.write_raw(&[], vec![(BookingBlock::TREE, writes.blocks)])?;
        Ok(())
    }
}
