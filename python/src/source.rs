//! Where an archive is read from: a path, a binary file object, or a
//! bytes-like object, as one `Read` that the WARC reader drives with the
//! GIL released.

use std::fs::File;
use std::io::{self, Read};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use pyo3::exceptions::{PyOSError, PyTypeError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::{PyByteArray, PyBytes, PyMemoryView, PyString};

/// How many bytes one `.read` call of a file object asks for: large, so
/// that the GIL is taken back rarely.
const READ_SIZE: usize = 1 << 20;

/// The exception a file object's `.read` raised, kept for the caller to
/// raise as it is once the reader has stopped; the failure stays known
/// after the exception is taken, so that no later read is tried.
#[derive(Clone, Default)]
pub(crate) struct Failure(Arc<Mutex<(bool, Option<PyErr>)>>);

impl Failure {
    fn slot(&self) -> std::sync::MutexGuard<'_, (bool, Option<PyErr>)> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn set(&self, e: PyErr) {
        let mut slot = self.slot();
        if !slot.0 {
            *slot = (true, Some(e));
        }
    }
    /// Whether a read has failed.
    pub(crate) fn happened(&self) -> bool {
        self.slot().0
    }
    /// The exception, once.
    pub(crate) fn take(&self) -> Option<PyErr> {
        self.slot().1.take()
    }
}

/// An archive's bytes, and the name its messages give it.
pub(crate) struct Source {
    /// The path, the file object's `.name`, or `<TYPE>`.
    pub(crate) name: String,
    pub(crate) input: Box<dyn Read + Send + Sync>,
    /// Set when a file object's `.read` raised.
    pub(crate) failure: Failure,
}

impl Source {
    /// Reads `obj`: `bytes` in place; a `bytearray` or `memoryview`
    /// copied once (they may change while read); a `str` or
    /// `os.PathLike` opened as a file; anything else with a `read`
    /// method read as a binary stream.
    pub(crate) fn new(obj: &Bound<'_, PyAny>) -> PyResult<Source> {
        let failure = Failure::default();
        let in_memory = |name: &str, bytes: PyBackedBytes| Source {
            name: format!("<{name}>"),
            input: Box::new(io::Cursor::new(bytes)),
            failure: failure.clone(),
        };
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(in_memory("bytes", PyBackedBytes::from(b.clone())));
        }
        if let Ok(b) = obj.cast::<PyByteArray>() {
            return Ok(in_memory("bytearray", PyBackedBytes::from(b.clone())));
        }
        if obj.cast::<PyMemoryView>().is_ok() {
            let copy = obj.call_method0("tobytes")?.cast_into::<PyBytes>()?;
            return Ok(in_memory("memoryview", PyBackedBytes::from(copy)));
        }
        if obj.cast::<PyString>().is_ok() || obj.hasattr("__fspath__")? {
            return Source::open(obj.extract::<PathBuf>()?);
        }
        if obj.hasattr("read")? {
            let name = stream_name(obj)?;
            let stream = PyStream {
                name: name.clone(),
                file: obj.clone().unbind(),
                chunk: None,
                pos: 0,
                end: false,
                failure: failure.clone(),
            };
            return Ok(Source { name, input: Box::new(stream), failure });
        }
        Err(PyTypeError::new_err(format!(
            "expected a path, a binary file object or bytes, not {}",
            obj.get_type().name()?
        )))
    }

    /// Opens `path` (a path that is not UTF-8 is opened as it is, and
    /// named in messages with U+FFFD for its bad bytes).
    fn open(path: PathBuf) -> PyResult<Source> {
        let name = path.to_string_lossy().into_owned();
        let file = File::open(&path).map_err(|e| {
            PyOSError::new_err((
                e.raw_os_error().unwrap_or(0),
                e.to_string(),
                name.clone(),
            ))
        })?;
        Ok(Source { name, input: Box::new(file), failure: Failure::default() })
    }
}

/// A file object's name for messages: its `.name` when that is a path
/// (as for `open` and `gzip.open`), else fsspec's `.full_name` (the URL,
/// `s3://bucket/key`), else its type.
fn stream_name(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    for attr in ["name", "full_name"] {
        if let Ok(name) = obj.getattr(attr)
            && let Ok(path) = name.extract::<PathBuf>()
        {
            return Ok(path.to_string_lossy().into_owned());
        }
    }
    Ok(format!("<{}>", obj.get_type().name()?))
}

/// A Python binary file object as a `Read`: each call of its `.read`
/// takes the GIL for that call only, and asks for `READ_SIZE` bytes,
/// whose `bytes` object is then read in place, without a copy.
///
/// `.read` into a new `bytes` rather than `.readinto` a buffer: a view of
/// Rust memory handed to Python code may outlive the call (a slice of it
/// survives `release()`), and `readinto` a Python `bytearray` would need
/// a copy out of it, which reading the returned `bytes` in place does not.
struct PyStream {
    name: String,
    file: Py<PyAny>,
    chunk: Option<PyBackedBytes>,
    pos: usize,
    end: bool,
    failure: Failure,
}

impl PyStream {
    /// Reads the next chunk; an exception is kept in `failure`.
    fn fill(&mut self, py: Python<'_>) -> PyResult<()> {
        self.chunk = None;
        self.pos = 0;
        let got = self
            .file
            .bind(py)
            .call_method1(pyo3::intern!(py, "read"), (READ_SIZE,))?;
        let bytes = if let Ok(b) = got.cast::<PyBytes>() {
            PyBackedBytes::from(b.clone())
        } else if let Ok(b) = got.cast::<PyByteArray>() {
            PyBackedBytes::from(b.clone())
        } else if got.cast::<PyMemoryView>().is_ok() {
            let copy = got.call_method0("tobytes")?.cast_into::<PyBytes>()?;
            PyBackedBytes::from(copy)
        } else {
            let what = if got.is_none() {
                "None (a non-blocking stream with no data ready)".to_owned()
            } else {
                got.get_type().name()?.to_string()
            };
            return Err(PyTypeError::new_err(format!(
                "{}: read() returned {what}, not bytes: expected a binary \
                 file object (opened with 'rb')",
                self.name
            )));
        };
        self.end = bytes.is_empty();
        self.chunk = Some(bytes);
        Ok(())
    }
}

impl Read for PyStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            if let Some(chunk) = &self.chunk
                && self.pos < chunk.len()
            {
                let n = buf.len().min(chunk.len() - self.pos);
                buf[..n].copy_from_slice(&chunk[self.pos..self.pos + n]);
                self.pos += n;
                return Ok(n);
            }
            if self.end || buf.is_empty() {
                return Ok(0);
            }
            if self.failure.happened() {
                return Err(io::Error::other("the file object's read failed"));
            }
            Python::attach(|py| self.fill(py)).map_err(|e| {
                self.failure.set(e);
                io::Error::other("the file object's read raised")
            })?;
        }
    }
}
