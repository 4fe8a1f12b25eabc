//! Every format change of the data directory, oldest first: entry N makes format N + 1 from format N, and
//! the format this build writes is the last entry's (format 1 with none). Adding one is a function that
//! changes a copy of the directory through `Migrating` (beside the code whose records it changes) and one
//! line here; docs/data-directory.md says the rest: the fixture to make and the tests that hold it.
//!
//! ```text
//! Migration { to: 2, what: "payments and bookings in a compact encoding", run: crate::payments::compact::migrate },
//! ```

use super::migrate::Migration;

/// The format changes, oldest first (`to` is 2, 3, … in order: checked by a test).
pub const MIGRATIONS: &[Migration] = &[Migration {
    to: 2,
    what: "payments and account transactions in a compact binary form (payment bookings in one record per batch run and account)",
    run: crate::payments::codec::migrate,
}];
