//! A document handed in from Python, and its offsets in the caller's
//! units: bytes for `bytes`, characters (code points) for `str`.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// The bytes of a `bytes` or the UTF-8 of a `str`, borrowed from the
/// object (a `str` keeps its UTF-8 form cached, so nothing is copied),
/// and whether offsets are to be counted in characters.
pub(crate) struct Input<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) is_str: bool,
}

impl<'a> Input<'a> {
    /// Reads `obj`, which must be `bytes` or `str`.
    pub(crate) fn new(obj: &'a Bound<'_, PyAny>) -> PyResult<Input<'a>> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Input { bytes: b.as_bytes(), is_str: false });
        }
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(Input { bytes: s.to_str()?.as_bytes(), is_str: true });
        }
        Err(PyTypeError::new_err(format!(
            "expected bytes or str, not {}",
            obj.get_type().name()?
        )))
    }

    /// A converter of this input's byte offsets to the caller's units.
    pub(crate) fn offsets(&self) -> Offsets<'a> {
        Offsets {
            text: self.bytes,
            // ASCII text counts the same in bytes and characters: one pass
            // of the (vectorized) check saves counting at every offset.
            chars: self.is_str && !self.bytes.is_ascii(),
            byte: 0,
            char: 0,
        }
    }
}

/// Turns byte offsets into character offsets, counting forward from the
/// last offset asked, so that increasing offsets (matches and links come
/// in document order) cost one pass over the text in all.
pub(crate) struct Offsets<'a> {
    text: &'a [u8],
    chars: bool,
    byte: usize,
    char: usize,
}

impl Offsets<'_> {
    /// The offset of byte `at` (a character boundary) in the caller's
    /// units.
    pub(crate) fn at(&mut self, at: usize) -> usize {
        if !self.chars {
            return at;
        }
        if at < self.byte {
            (self.byte, self.char) = (0, 0);
        }
        self.char += count_chars(&self.text[self.byte..at]);
        self.byte = at;
        self.char
    }
}

/// The number of characters in UTF-8 bytes: the bytes that are not
/// continuation bytes.
fn count_chars(utf8: &[u8]) -> usize {
    utf8.iter().filter(|&&b| (b as i8) >= -0x40).count()
}
