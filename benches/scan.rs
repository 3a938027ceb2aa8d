//! Criterion benches (to be written).

fn main() {}
