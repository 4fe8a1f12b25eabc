//! xs2a-sandbox: the command line (`serve`, `cert`, `sign`, `verify`, `export`, `import`, `replay`, `har`,
//! `curl`, `openapi`, `conformance`) over the service the layers below build.
//!
//! The layers' modules are re-exported here under the names they have in their crates, so the integration
//! tests (tests/), the benchmarks and the examples reach the whole service through one crate. The code of
//! each layer lives in its crate (docs/architecture.md): `xs2a-core` the bank, `xs2a-workbench` its tools,
//! `xs2a-http` the HTTP face and the app.

pub mod cli;
