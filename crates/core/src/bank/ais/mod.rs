//! Account information: who may read what (`access`: the PSU, the context, the limits without the PSU
//! present), the accounts and card accounts a consent grants (`granted`), and the transaction listings
//! (`listing`: the query's rules and paging; `transactions` and `card_transactions`: the operations).

pub mod access;
pub mod card_transactions;
pub mod granted;
pub mod listing;
pub mod transactions;
