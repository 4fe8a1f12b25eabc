//! Feature pins: no code, only dependencies with the features the test build turns on (see Cargo.toml).
#![no_std]
