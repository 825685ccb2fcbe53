//! The library's errors as Python exceptions, with the library's messages.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyIndexError, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use semigraph_algos::Error;
use semigraph_formats::FormatError;

create_exception!(
    _native,
    SemigraphError,
    PyException,
    "Base class of semigraph's own errors."
);
create_exception!(
    _native,
    NegativeCycleError,
    PyValueError,
    "A negative cycle is reachable from the source; `.cycle` lists its vertices in order."
);
create_exception!(
    _native,
    CycleError,
    PyValueError,
    "The algorithm needs a graph without cycles and found one; `.cycle` lists its vertices in order."
);
create_exception!(
    _native,
    NoPathError,
    PyValueError,
    "No path leads from the source to the target."
);
create_exception!(
    _native,
    ConvergenceError,
    SemigraphError,
    "An iteration did not reach its tolerance; `.iterations` says how many ran."
);
create_exception!(
    _native,
    GpuUnavailable,
    PyRuntimeError,
    "The GPU backend cannot be opened here (the message says why)."
);

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SemigraphError", py.get_type::<SemigraphError>())?;
    m.add("NegativeCycleError", py.get_type::<NegativeCycleError>())?;
    m.add("GpuUnavailable", py.get_type::<GpuUnavailable>())?;
    m.add("ConvergenceError", py.get_type::<ConvergenceError>())?;
    m.add("CycleError", py.get_type::<CycleError>())?;
    m.add("NoPathError", py.get_type::<NoPathError>())?;
    Ok(())
}

/// A library error as the Python exception a user expects: bad arguments as `ValueError`,
/// vertices out of range as `IndexError`, memory refusals as `MemoryError`, negative cycles
/// as [`NegativeCycleError`] carrying the cycle, a cycle where none may be as [`CycleError`]
/// carrying it, a missing path as [`NoPathError`], iterations short of their tolerance as
/// [`ConvergenceError`].
pub(crate) fn py_err(e: Error) -> PyErr {
    let msg = e.to_string();
    match e {
        Error::NegativeCycle { cycle } => Python::attach(|py| {
            let e = NegativeCycleError::new_err(msg);
            match e.value(py).setattr("cycle", cycle) {
                Ok(()) => e,
                Err(other) => other,
            }
        }),
        Error::Cycle { cycle, .. } => Python::attach(|py| {
            let e = CycleError::new_err(msg);
            match e.value(py).setattr("cycle", cycle) {
                Ok(()) => e,
                Err(other) => other,
            }
        }),
        Error::NotConverged { iterations, .. } => Python::attach(|py| {
            let e = ConvergenceError::new_err(msg);
            match e.value(py).setattr("iterations", iterations) {
                Ok(()) => e,
                Err(other) => other,
            }
        }),
        Error::NoPath { .. } => NoPathError::new_err(msg),
        Error::VertexOutOfRange { .. } => PyIndexError::new_err(msg),
        Error::NegativeWeight { .. } | Error::InvalidArgument(_) => PyValueError::new_err(msg),
        Error::OutOfMemory { .. } => PyMemoryError::new_err(msg),
        Error::Format(f) => format_err(f),
        Error::Interrupted => pyo3::exceptions::PyKeyboardInterrupt::new_err(msg),
        _ => SemigraphError::new_err(msg),
    }
}

/// A format error (bad matrix, bad value, memory) as a Python exception.
pub(crate) fn format_err(e: FormatError) -> PyErr {
    let msg = e.to_string();
    match e {
        FormatError::TooLarge { .. } => PyMemoryError::new_err(msg),
        _ => PyValueError::new_err(msg),
    }
}
