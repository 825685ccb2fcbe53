//! `semigraph._native`: the Rust side of the Python package. The Python modules in
//! `python/semigraph/` turn SciPy matrices into the index and value arrays these functions
//! take, and results come back as NumPy arrays that own the Rust vectors (no copy).
//!
//! One backend of each kind per process: the CPU backend, and the GPU backend opened on first
//! use (its kernels are compiled once and cached, as in the library).

mod algebra;
mod arrays;
mod backends;
mod device;
mod errors;
mod graph;
mod handles;
mod held;
mod indexing;
mod interrupt;
mod objects;
mod ops;
mod plans;
mod read;
mod registry;

use pyo3::prelude::*;

/// The module `semigraph._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(backends::gpu_status, m)?)?;
    m.add_function(wrap_pyfunction!(read::read_graph, m)?)?;
    m.add_function(wrap_pyfunction!(algebra::spmv, m)?)?;
    m.add_function(wrap_pyfunction!(algebra::spgemm, m)?)?;
    m.add_function(wrap_pyfunction!(algebra::semirings, m)?)?;
    m.add_function(wrap_pyfunction!(graph::bfs_once, m)?)?;
    m.add_function(wrap_pyfunction!(registry::algorithms, m)?)?;
    m.add_class::<graph::Graph>()?;
    // The algebra's objects and operations (python/semigraph/algebra.py wraps them).
    m.add_class::<handles::MatrixHandle>()?;
    m.add_class::<handles::VectorHandle>()?;
    for f in [
        wrap_pyfunction!(handles::matrix_from_csr, m)?,
        wrap_pyfunction!(handles::matrix_from_entries, m)?,
        wrap_pyfunction!(handles::matrix_to_csr, m)?,
        wrap_pyfunction!(handles::matrix_as, m)?,
        wrap_pyfunction!(handles::vector_from_values, m)?,
        wrap_pyfunction!(handles::vector_empty, m)?,
        wrap_pyfunction!(handles::vector_to_numpy, m)?,
        wrap_pyfunction!(handles::vector_as, m)?,
        wrap_pyfunction!(handles::nvals, m)?,
        wrap_pyfunction!(handles::semiring_info, m)?,
        wrap_pyfunction!(handles::wait, m)?,
        wrap_pyfunction!(ops::mxv, m)?,
        wrap_pyfunction!(ops::mxm, m)?,
        wrap_pyfunction!(ops::ewise, m)?,
        wrap_pyfunction!(ops::apply, m)?,
        wrap_pyfunction!(ops::select, m)?,
        wrap_pyfunction!(ops::reduce_vector, m)?,
        wrap_pyfunction!(ops::reduce_matrix, m)?,
        wrap_pyfunction!(indexing::extract_matrix, m)?,
        wrap_pyfunction!(indexing::extract_vector, m)?,
        wrap_pyfunction!(indexing::assign_vector, m)?,
        wrap_pyfunction!(indexing::transpose, m)?,
        wrap_pyfunction!(indexing::diag, m)?,
    ] {
        m.add_function(f)?;
    }
    m.add_class::<device::DeviceArray>()?;
    errors::register(m)?;
    // The kernels this process loads are loaded ahead in the next (see `backends::gpu`).
    m.add_function(wrap_pyfunction!(backends::save_kernel_profile, m)?)?;
    let save = m.getattr("save_kernel_profile")?;
    m.py().import("atexit")?.call_method1("register", (save,))?;
    Ok(())
}
