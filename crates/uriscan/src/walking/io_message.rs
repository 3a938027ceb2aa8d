//! How an I/O error reads in a message. Shared by the library's
//! [`Error`](super::Error) and the command line (which includes this file
//! with `#[path]`), so that both say the same thing, without making a
//! formatting helper public API.

/// The message of an I/O error, lowercase and without the `(os error N)`
/// tail that tells a user nothing.
pub(crate) fn io_message(err: &std::io::Error) -> String {
    let mut msg = err.to_string();
    if let Some(i) = msg.find(" (os error") {
        msg.truncate(i);
    }
    let mut chars = msg.chars();
    match chars.next() {
        Some(c) if c.is_uppercase() => c.to_lowercase().chain(chars).collect(),
        _ => msg,
    }
}
