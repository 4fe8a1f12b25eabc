//! Pure rules and types of the interface: money, code lists and Norwegian numbers. No I/O lives here.
