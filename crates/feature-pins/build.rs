//! Empty: it exists so that the `syn` pin in `[build-dependencies]` takes part in the build (Cargo.toml).
fn main() {}
