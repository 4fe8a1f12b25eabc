//! The one list of the state's trees and what each holds. Initialisation, export and import go through
//! this list, so a tree added to the code and not here fails every test that touches it
//! ([`super::Store::table`] refuses an unregistered tree), instead of being forgotten by a reset.

/// What a tree holds, which decides what a reset does to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Customers, accounts, cards, transactions, agreements: reset to the seed by initialisation.
    MockData,
    /// What the TPPs and PSUs did on top of the mock data (consents, sessions, payments, runs):
    /// emptied by initialisation, since it points at mock data that is made afresh.
    Flow,
    /// Settings and registrations that outlive a reset (the clock, switches, TPP contacts).
    Configuration,
    /// Records of what happened (the traffic log); kept across resets, capped by their own retention.
    Log,
}

/// One registered tree.
#[derive(Debug, Clone, Copy)]
pub struct TreeInfo {
    pub name: &'static str,
    pub kind: Kind,
    pub holds: &'static str,
}

const fn tree(name: &'static str, kind: Kind, holds: &'static str) -> TreeInfo {
    TreeInfo { name, kind, holds }
}

/// Every tree of the state. Tree names are part of the on-disk format: never rename one.
#[rustfmt::skip]
pub const TREES: &[TreeInfo] = &[
    tree("sandbox-customers", Kind::MockData, "customers"),
    tree("sandbox-accounts", Kind::MockData, "accounts and their balances"),
    tree("sandbox-card-accounts", Kind::MockData, "card accounts"),
    tree("sandbox-transactions", Kind::MockData, "account transactions"),
    tree("sandbox-payment-bookings", Kind::MockData, "account transactions booked by payments, one record per run and account"),
    tree("sandbox-transaction-sequences", Kind::MockData, "the last transaction number per account"),
    tree("sandbox-pending-transactions", Kind::MockData, "account transactions not yet booked"),
    tree("sandbox-card-transactions", Kind::MockData, "card transactions"),
    tree("sandbox-agreements", Kind::MockData, "corporate agreements"),
    tree("consents", Kind::Flow, "bank-offered consents"),
    tree("ais-access-log", Kind::Flow, "online and unattended account reads per TPP"),
    tree("sca-sessions", Kind::Flow, "TPP sessions and their SCA"),
    tree("sca-authorisations", Kind::Flow, "authorisations behind the SCA pages"),
    tree("sca-authorisations-by-tpp", Kind::Flow, "each TPP's authorisations in start order (the cap)"),
    tree("sca-authorisation-counts", Kind::Flow, "how many authorisations each TPP has"),
    tree("sca-expiry", Kind::Flow, "when each authorisation and session may be pruned"),
    tree("sca-psu-links", Kind::Flow, "psu-ids given to TPPs"),
    tree("sca-corporate-links", Kind::Flow, "psu-corporate-ids given to TPPs"),
    tree("payments", Kind::Flow, "payments with their status history"),
    tree("payment-duplicates", Kind::Flow, "the logical-duplicate index of payments"),
    tree("signing-baskets", Kind::Flow, "signing baskets"),
    tree("batch-runs", Kind::Flow, "batch runs with each payment's outcome"),
    tree("batch-schedule", Kind::Configuration, "the last scheduled run performed"),
    tree("settings", Kind::Configuration, "sandbox switches"),
    tree("rehearsal", Kind::Configuration, "the profile and the fault plan (docs/rehearsal.md)"),
    tree("central-register", Kind::Configuration, "TPPs seen, as the simulated central register holds them"),
    tree("clock", Kind::Configuration, "the simulated clock"),
    tree("tpp-contacts", Kind::Configuration, "TPP technical contacts"),
    tree("workbench-personas", Kind::Configuration, "the workbench's TPP personas"),
    tree("workbench-history", Kind::Log, "the composer's sent requests"),
    tree("workbench-callbacks", Kind::Log, "SCA redirects captured by the workbench"),
    tree("traffic-segments", Kind::Log, "the traffic log's entries, many per record"),
    tree("traffic-entries", Kind::Log, "an earlier version's traffic summaries (carried over at start)"),
    tree("traffic-exchanges", Kind::Log, "an earlier version's traffic exchanges (carried over at start)"),
    tree("traffic-totals", Kind::Log, "an earlier version's traffic totals (carried over at start)"),
    tree("traffic-settings", Kind::Configuration, "the traffic log's switches and caps"),
    tree("change-journal", Kind::Log, "what each exchange and event changed in the other trees (rewind)"),
    // Snapshots are whole states: kept across resets and outside state files, as the logs are.
    tree("workbench-snapshots", Kind::Log, "named snapshots of the whole state (state files)"),
    tree("data-directory", Kind::Log, "that the directory was initialised (seeded, or given a fixture or import): never seeded again at start"),
];

/// The registered tree called `name`, if any.
pub fn find(name: &str) -> Option<&'static TreeInfo> {
    TREES.iter().find(|t| t.name == name)
}

/// The names of the trees of one kind.
pub fn names(kind: Kind) -> Vec<&'static str> {
    TREES
        .iter()
        .filter(|t| t.kind == kind)
        .map(|t| t.name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_names_are_unique() {
        let mut names: Vec<_> = TREES.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TREES.len());
    }
}
