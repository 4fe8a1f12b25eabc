//! Which trees a state file carries and how each record is checked: decoded into the code's own record
//! type (so the file obeys exactly what the service stores), keyed as the store keys it, and its ids and
//! references to other records noted for the reference check. Every registered tree that is not a log
//! must be listed here; a test holds the list to `store::registry`.

use super::error::{pointer_of, FileError};
use serde_json::Value;
use xs2a_core::store::registry::{self, Kind};
use xs2a_core::store::Record;

/// What a reference points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    Customer,
    Account,
    CardAccount,
    /// An account or a card account (payments and access counts name either).
    AnyAccount,
    Agreement,
}

impl Target {
    pub fn noun(self) -> &'static str {
        match self {
            Target::Customer => "customer",
            Target::Account => "account",
            Target::CardAccount => "card account",
            Target::AnyAccount => "account or card account",
            Target::Agreement => "agreement",
        }
    }
}

/// One record, checked: its store key, its encoding as the service writes it, the ids it gives others
/// to point at, and the references it makes (relative JSON pointer, what, id).
#[derive(Debug)]
pub struct Decoded {
    pub key: String,
    pub bytes: Vec<u8>,
    pub provides: Vec<(Target, String)>,
    pub refers: Vec<(String, Target, String)>,
}

/// Decodes one record from its text in the file, found at a JSON pointer.
type Decode = fn(&str, &str) -> Result<Decoded, FileError>;

/// One carried tree.
pub struct Carried {
    pub tree: &'static str,
    pub decode: Decode,
}

/// Decodes a record of type `R` from its text, found at `at` (a JSON pointer), naming the exact place of
/// any mismatch.
fn typed<R: Record>(text: &str, at: &str) -> Result<(R, String, Vec<u8>), FileError> {
    // Decoded straight from the file's text, without a JSON tree and without tracking the path (the
    // common case, and much faster). A record that fails is decoded again through a JSON tree, as a
    // file was always read (a member given twice: the last one counts), and with the path tracked to
    // name the field.
    let record: R = match serde_json::from_str(text) {
        Ok(record) => record,
        Err(_) => {
            let value: Value = serde_json::from_str(text)
                .map_err(|e| FileError::schema(at.to_owned(), format!("not JSON: {e}")))?;
            match R::deserialize(&value) {
                Ok(record) => record,
                Err(_) => serde_path_to_error::deserialize(&value).map_err(|error| {
                    let inner = pointer_of(error.path());
                    FileError::schema(
                        format!("{at}{inner}"),
                        format!("not a valid {} record: {}", R::TREE, error.inner()),
                    )
                })?,
            }
        }
    };
    let bytes = record
        .to_stored()
        .map_err(|e| FileError::schema(at.to_owned(), format!("cannot be encoded: {e}")))?;
    let key = record.key();
    Ok((record, key, bytes))
}

/// A stored record as the file's JSON: as it is, unless its tree keeps a compact form (payments, account
/// transactions and payment bookings, `xs2a_core::store::codec`), which is decoded and written as JSON.
pub fn stored_as_json(tree: &str, stored: Vec<u8>) -> Result<Vec<u8>, FileError> {
    fn json_of<R: Record>(stored: &[u8]) -> Result<Vec<u8>, FileError> {
        let record = R::from_stored(stored).map_err(FileError::storage)?;
        serde_json::to_vec(&record).map_err(FileError::storage)
    }
    if xs2a_core::store::codec::is_json(&stored) {
        return Ok(stored);
    }
    match tree {
        xs2a_core::bank::pis::model::Payment::TREE => {
            json_of::<xs2a_core::bank::pis::model::Payment>(&stored)
        }
        mock::Transaction::TREE => json_of::<mock::Transaction>(&stored),
        xs2a_core::bank::mock::booking_blocks::BookingBlock::TREE => {
            json_of::<xs2a_core::bank::mock::booking_blocks::BookingBlock>(&stored)
        }
        _ => Err(FileError::storage(format!(
            "a record in {tree} is not JSON"
        ))),
    }
}

/// A record type with no ids or references the check needs.
fn plain<R: Record>(text: &str, at: &str) -> Result<Decoded, FileError> {
    let (_, key, bytes) = typed::<R>(text, at)?;
    Ok(Decoded {
        key,
        bytes,
        provides: Vec::new(),
        refers: Vec::new(),
    })
}

macro_rules! with_links {
    ($name:ident, $ty:ty, |$r:ident| provides: $provides:expr, refers: $refers:expr) => {
        fn $name(text: &str, at: &str) -> Result<Decoded, FileError> {
            let ($r, key, bytes) = typed::<$ty>(text, at)?;
            let provides: Vec<(Target, String)> = $provides;
            let refers: Vec<(String, Target, String)> = $refers;
            Ok(Decoded {
                key,
                bytes,
                provides,
                refers,
            })
        }
    };
}

fn at(field: &str, target: Target, id: &str) -> (String, Target, String) {
    (field.to_owned(), target, id.to_owned())
}

use xs2a_core::bank::mock::model as mock;

with_links!(customer, mock::Customer, |r| provides: vec![(Target::Customer, r.id.clone())], refers: vec![]);
with_links!(account, mock::Account, |r| provides: vec![(Target::Account, r.id.clone())],
    refers: vec![at("/customerId", Target::Customer, &r.customer_id)]);
with_links!(card_account, mock::CardAccount, |r| provides: vec![(Target::CardAccount, r.id.clone())],
    refers: vec![at("/customerId", Target::Customer, &r.customer_id)]);
with_links!(transaction, mock::Transaction, |r| provides: vec![],
    refers: vec![at("/accountId", Target::Account, &r.account_id)]);
with_links!(booking_block, xs2a_core::bank::mock::booking_blocks::BookingBlock, |r| provides: vec![],
    refers: vec![at("/accountId", Target::AnyAccount, &r.account_id)]);
with_links!(pending, mock::PendingTransaction, |r| provides: vec![],
    refers: vec![at("/accountId", Target::Account, &r.0.account_id)]);
with_links!(sequence, xs2a_core::bank::mock::transactions::SequenceCounter, |r| provides: vec![],
    refers: vec![at("/accountId", Target::Account, &r.account_id)]);
with_links!(card_transaction, mock::CardTransaction, |r| provides: vec![],
    refers: vec![at("/cardAccountId", Target::CardAccount, &r.card_account_id)]);
with_links!(agreement, mock::Agreement, |r| provides: vec![(Target::Agreement, r.id.clone())],
refers: {
    let mut refs = vec![at("/ownerCustomerId", Target::Customer, &r.owner_customer_id)];
    for (i, e) in r.engagements.iter().enumerate() {
        refs.push(at(&format!("/engagements/{i}/customerId"), Target::Customer, &e.customer_id));
        refs.push(at(&format!("/engagements/{i}/accountId"), Target::Account, &e.account_id));
    }
    refs
});
with_links!(consent, xs2a_core::bank::consent::Consent, |r| provides: vec![],
refers: {
    let mut refs = vec![at("/customerId", Target::Customer, &r.customer_id)];
    if let Some(agreement) = &r.agreement_id {
        refs.push(at("/agreementId", Target::Agreement, agreement));
    }
    for (i, a) in r.accounts.iter().enumerate() {
        refs.push(at(&format!("/accounts/{i}"), Target::Account, a));
    }
    for (i, a) in r.card_accounts.iter().enumerate() {
        refs.push(at(&format!("/cardAccounts/{i}"), Target::CardAccount, a));
    }
    refs
});
with_links!(access_log, xs2a_core::bank::consent::AccountAccessLog, |r| provides: vec![],
    refers: vec![at("/accountId", Target::AnyAccount, &r.account_id)]);
with_links!(payment, xs2a_core::bank::pis::model::Payment, |r| provides: vec![],
refers: {
    let mut refs = vec![at("/debtorAccountId", Target::AnyAccount, &r.debtor_account_id)];
    // Empty until a single-SCA journey identifies the PSU.
    if !r.customer_id.is_empty() {
        refs.push(at("/customerId", Target::Customer, &r.customer_id));
    }
    refs
});

/// Every carried tree, in registry order.
pub const CARRIED: &[Carried] = &[
    Carried {
        tree: "sandbox-customers",
        decode: customer,
    },
    Carried {
        tree: "sandbox-accounts",
        decode: account,
    },
    Carried {
        tree: "sandbox-card-accounts",
        decode: card_account,
    },
    Carried {
        tree: "sandbox-transactions",
        decode: transaction,
    },
    Carried {
        tree: "sandbox-payment-bookings",
        decode: booking_block,
    },
    Carried {
        tree: "sandbox-transaction-sequences",
        decode: sequence,
    },
    Carried {
        tree: "sandbox-pending-transactions",
        decode: pending,
    },
    Carried {
        tree: "sandbox-card-transactions",
        decode: card_transaction,
    },
    Carried {
        tree: "sandbox-agreements",
        decode: agreement,
    },
    Carried {
        tree: "consents",
        decode: consent,
    },
    Carried {
        tree: "ais-access-log",
        decode: access_log,
    },
    Carried {
        tree: "sca-sessions",
        decode: plain::<xs2a_core::bank::sca::session::TppSession>,
    },
    Carried {
        tree: "sca-authorisations",
        decode: plain::<xs2a_core::bank::sca::authorisation::Authorisation>,
    },
    Carried {
        tree: "sca-authorisations-by-tpp",
        decode: plain::<xs2a_core::bank::sca::retention::TppAuthorisation>,
    },
    Carried {
        tree: "sca-authorisation-counts",
        decode: plain::<xs2a_core::bank::sca::retention::TppAuthorisationCount>,
    },
    Carried {
        tree: "sca-expiry",
        decode: plain::<xs2a_core::bank::sca::retention::Expiry>,
    },
    Carried {
        tree: "sca-psu-links",
        decode: plain::<xs2a_core::bank::sca::psu::PsuLink>,
    },
    Carried {
        tree: "sca-corporate-links",
        decode: plain::<xs2a_core::bank::sca::psu::CorporateLink>,
    },
    Carried {
        tree: "payments",
        decode: payment,
    },
    Carried {
        tree: "payment-duplicates",
        decode: plain::<xs2a_core::bank::pis::service::DuplicateIndexEntry>,
    },
    Carried {
        tree: "signing-baskets",
        decode: plain::<xs2a_core::bank::pis::model::Basket>,
    },
    Carried {
        tree: "batch-runs",
        decode: plain::<xs2a_core::bank::batch::model::BatchRun>,
    },
    Carried {
        tree: "batch-schedule",
        decode: plain::<xs2a_core::bank::batch::model::ScheduleMarker>,
    },
    Carried {
        tree: "settings",
        decode: plain::<xs2a_core::bank::pis::settings::Stored>,
    },
    Carried {
        tree: "rehearsal",
        decode: plain::<xs2a_core::bank::rehearsal::stored::StoredRehearsal>,
    },
    Carried {
        tree: "central-register",
        decode: plain::<xs2a_core::bank::rehearsal::register::RegisteredTpp>,
    },
    Carried {
        tree: "clock",
        decode: plain::<xs2a_core::bank::clock_control::StoredClock>,
    },
    Carried {
        tree: "tpp-contacts",
        decode: plain::<xs2a_core::bank::tpp_dialogue::TppContact>,
    },
    Carried {
        tree: "workbench-personas",
        decode: plain::<crate::stored_persona::StoredPersona>,
    },
    Carried {
        tree: "traffic-settings",
        decode: plain::<crate::traffic::store::StoredSettings>,
    },
];

/// The carried tree called `name`.
pub fn carried(name: &str) -> Option<&'static Carried> {
    CARRIED.iter().find(|c| c.tree == name)
}

/// The kind of a registered tree (every carried tree is registered: see the tests).
pub fn kind(name: &str) -> Option<Kind> {
    registry::find(name).map(|t| t.kind)
}

/// The registry's name for `name` (carried names are registry names, with a `'static` lifetime).
pub fn static_name(name: &str) -> Option<&'static str> {
    carried(name).map(|c| c.tree)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree added to the registry must be carried by the state file (or be a log): this is the test
    /// that fails when it is forgotten.
    #[test]
    fn every_registered_tree_but_the_logs_is_carried_and_nothing_else() {
        for tree in registry::TREES {
            match tree.kind {
                Kind::Log => assert!(
                    carried(tree.name).is_none(),
                    "{} is a log; state files leave logs out",
                    tree.name
                ),
                _ => assert!(
                    carried(tree.name).is_some(),
                    "the registered tree {} ({}) is not carried by the state file: add it to \
                     state_file::trees::CARRIED",
                    tree.name,
                    tree.holds
                ),
            }
        }
        for c in CARRIED {
            assert!(
                registry::find(c.tree).is_some(),
                "{} is not registered",
                c.tree
            );
        }
    }

    #[test]
    fn carried_trees_follow_the_registry_order() {
        let registry_order: Vec<_> = registry::TREES
            .iter()
            .filter(|t| t.kind != Kind::Log)
            .map(|t| t.name)
            .collect();
        let carried_order: Vec<_> = CARRIED.iter().map(|c| c.tree).collect();
        assert_eq!(registry_order, carried_order);
    }
}
