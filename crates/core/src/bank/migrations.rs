//! Every format change of the data directory, oldest first: entry N makes format N + 1 from format N, and
//! the format this build writes is the last entry's (format 1 with none). The store runs them
//! (`store::migrate`) but does not know them: their steps read the records of the modules above it
//! (payments, sandbox), so the list lives here, above both, and whoever opens a data directory hands
//! [`active`] to `Store::open`. Adding one is a function that changes a copy of the directory through
//! `Migrating` (beside the code whose records it changes) and one line here; docs/data-directory.md says
//! the rest: the fixture to make and the tests that hold it.
//!
//! ```text
//! Migration { to: 3, what: "what changes, in a few words", run: crate::MODULE::migrate },
//! ```

use crate::store::migrate::{self, Migration};
use std::sync::OnceLock;

/// The format changes, oldest first (`to` is 2, 3, … in order: checked by a test).
pub const MIGRATIONS: &[Migration] = &[Migration {
    to: 2,
    what: "payments and account transactions in a compact binary form (payment bookings in one record per batch run and account)",
    run: crate::bank::pis::codec::migrate,
}];

/// The migrations this process runs: [`MIGRATIONS`], plus the test-only one when `XS2A_TEST_MIGRATION=1`
/// (the kill -9 trials need a format change that the released formats do not have yet).
pub fn active() -> &'static [Migration] {
    static ACTIVE: OnceLock<Vec<Migration>> = OnceLock::new();
    ACTIVE.get_or_init(|| {
        let mut list = MIGRATIONS.to_vec();
        if std::env::var("XS2A_TEST_MIGRATION").as_deref() == Ok("1") {
            let next = migrate::format_made_by(&list) + 1;
            list.push(migrate::test_only::migration(next));
        }
        list
    })
}

/// The data format this process reads and writes: the last active migration's, or the first format.
pub fn current() -> u32 {
    migrate::format_made_by(active())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listed_migrations_make_formats_2_3_and_so_on_in_order() {
        for (i, migration) in MIGRATIONS.iter().enumerate() {
            assert_eq!(migration.to, i as u32 + 2, "{migration:?}");
        }
        assert_eq!(current(), MIGRATIONS.len() as u32 + 1);
    }
}
