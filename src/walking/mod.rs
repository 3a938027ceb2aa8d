//! Walking directory trees for files to scan.
