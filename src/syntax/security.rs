//! Section 7, "Security Considerations": warnings about URIs that are
//! valid but deserve a second look.
