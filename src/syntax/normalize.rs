//! Section 6, "Normalization and Comparison".
