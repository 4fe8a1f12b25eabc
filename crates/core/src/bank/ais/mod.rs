//! Account information: who may read what (the PSU, the context, the limits without the PSU present).

pub mod access;
