//! Benchmarks live in the `[[bench]]` targets of this crate; this library is empty.
