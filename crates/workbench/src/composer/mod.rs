//! The composer's drafts (docs/workbench-api.md, "Composer"): a draft's placeholders filled from the
//! persona (`placeholders`), its method, path and headers checked, and the request signed with the
//! persona's certificate (`draft`). Served by the HTTP crate's composer handlers.

pub mod draft;
pub mod placeholders;
