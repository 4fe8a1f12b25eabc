//! The traffic log over HTTP: the capture of every exchange on the port (`capture`), and the workbench
//! API that serves the log to the inspector and the flow view (`routes`; declared with their descriptions
//! in `openapi`).

pub mod capture;
pub mod openapi;
pub mod routes;
pub mod verdict;
