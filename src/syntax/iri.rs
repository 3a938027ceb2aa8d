//! IRIs, RFC 3987: `ucschar`, `iprivate`, and the mapping of an IRI to a
//! URI (3.1).
