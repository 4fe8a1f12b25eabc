//! Integration tests: the real server on port 0, real signed requests. One binary, one module per area.

mod ais_accounts;
mod ais_journeys;
mod ais_rules;
mod batch;
mod bounded;
mod cli;
mod clock;
mod durability;
mod errors;
mod gate_accepts;
mod gate_refuses;
mod helpers;
mod pis;
mod pis_rules;
mod pis_support;
mod sandbox;
mod sca_browser;
mod sca_pages;
mod strict_input;
mod tpp_dialogue;
mod transport;
mod transport_limits;
