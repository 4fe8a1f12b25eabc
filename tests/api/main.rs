//! Integration tests: the real server on port 0, real signed requests. One binary, one module per area.

mod ais_accounts;
mod ais_journeys;
mod ais_rules;
mod batch;
mod cli;
mod cli_kit;
mod clock;
mod durability;
mod errors;
mod gate_accepts;
mod gate_refuses;
mod helpers;
mod kit_proxy;
mod kit_rules;
mod pis;
mod pis_rules;
mod pis_support;
mod platform_kit;
mod readme;
mod sandbox;
mod sca_browser;
mod sca_pages;
mod tpp_dialogue;
mod transport;
