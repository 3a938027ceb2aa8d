//! The `uriscan._uriscan` extension module: uriscan's scanner, link
//! extractor and RFC 3986 syntax for Python. The Python package
//! `uriscan` (python/uriscan/) re-exports it, adds the Arrow glue in
//! `uriscan.arrow`, and carries the type stubs.

use pyo3::prelude::*;

mod arrow;
mod find;
mod links;
mod source;
mod syntax;
mod text;
mod warc;

/// The native part of uriscan; import `uriscan`, not this.
#[pymodule]
fn _uriscan(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(find::find, m)?)?;
    m.add_function(wrap_pyfunction!(links::links, m)?)?;
    m.add_function(wrap_pyfunction!(syntax::parse, m)?)?;
    m.add_function(wrap_pyfunction!(syntax::resolve, m)?)?;
    m.add_function(wrap_pyfunction!(syntax::normalize, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::_links_columns, m)?)?;
    m.add_class::<find::PyMatch>()?;
    m.add_class::<links::PyLink>()?;
    m.add_class::<syntax::PyUri>()?;
    m.add_function(wrap_pyfunction!(warc::warc_links, m)?)?;
    m.add_function(wrap_pyfunction!(warc::_warc_columns, m)?)?;
    m.add_class::<warc::PyWarcLink>()?;
    m.add_class::<warc::PyWarcLinks>()?;
    m.add("ParseError", m.py().get_type::<syntax::ParseError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
