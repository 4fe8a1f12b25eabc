//! Payment initiation: the payment and basket records and their states, the validation of payment
//! requests per product, and the service that creates, authorises, reads and deletes them. Execution
//! happens in the batch simulator (`crate::bank::batch`).

pub mod baskets;
pub mod codec;
pub mod model;
pub mod service;
pub mod settings;
pub mod status;
pub mod summary;
pub mod validation;
