//! The bank's behaviour, one folder per area, over the layers below (domain, store, signing): account
//! information, payments and baskets, SCA, consent, the batch runs, the mock data, the rehearsal rules and
//! the bank's events; and what ties them together (the shared state, start-up, the format migrations).

pub mod after_sca;
pub mod ais;
pub mod batch;
pub mod causes;
pub mod clock_control;
pub mod consent;
pub mod customer_removal;
pub mod events;
pub mod fault_effects;
pub mod migrations;
pub mod mock;
pub mod operator_access;
pub mod payment_initiation;
pub mod pis;
pub mod rehearsal;
pub mod sca;
pub mod sca_automation;
pub mod startup;
pub mod state;
pub mod tpp_dialogue;
