//! How an I/O error reads in a message, shared by the walk's
//! [`Error`](super::Error) and the command line so that both say the same
//! thing.

/// The message of an I/O error, lowercase and without the `(os error N)`
/// tail that tells a user nothing: the wording of the walk's
/// [`Error`](super::Error), for a tool that reports its own I/O errors
/// the same way.
///
/// ```
/// use uriscan::walking::io_message;
/// let e = std::fs::File::open("/definitely/not/here").unwrap_err();
/// # #[cfg(unix)]
/// assert_eq!(io_message(&e), "no such file or directory");
/// ```
pub fn io_message(err: &std::io::Error) -> String {
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
