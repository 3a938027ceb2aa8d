//! Section 5, "Reference Resolution".
