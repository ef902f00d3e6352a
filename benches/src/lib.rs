//! Shared helpers for the criterion benches in this directory.
