//! The traffic log over HTTP: the capture of every exchange on the port (`capture`), and the workbench
//! API that serves the log to the inspector and the flow view (`handlers`; listed in `api::workbench::routes`,
//! described in `openapi`).

pub mod capture;
pub mod handlers;
pub mod openapi;
pub mod verdict;
