//! The sandbox mock-data API over HTTP.
