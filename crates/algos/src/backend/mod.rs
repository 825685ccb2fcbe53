//! The backend interface: everything an algorithm may ask of a CPU or a GPU.
//!
//! # Model
//! A backend owns three kinds of handles, all typed by a [`Semiring`]:
//! - [`Objects::Matrix`]: a sparse matrix in one [`Format`](semigraph_formats::Format), built from a [`Csr`](semigraph_formats::Csr);
//! - [`Objects::Dense`]: a dense `rows x cols` array, row-major. A vector is a `n x 1` array,
//!   a block of `k` vectors is `n x k`, a distance matrix is `n x n`;
//! - [`Objects::Sparse`]: a sparse vector (sorted indices and their values), the frontier of
//!   push-style algorithms;
//! - [`Frontier::Queue`] (the [`Frontier`] trait, opt-in plumbing beside the algebra): a work queue of vertices and values whose length stays where the
//!   backend computes, so that a traversal runs many steps ([`Frontier::queue_relax`]) before it
//!   reads anything back ([`Frontier::queue_len`]).
//!
//! Handles live where the backend computes (host memory for the CPU, device memory for a GPU)
//! and stay there between calls; only the `read_*` methods bring data back.
//!
//! # Entries and zeros
//! As in GraphBLAS, a dense array has an entry at `i` unless its value is the semiring's
//! [`Semiring::zero`] (the "no entry" value: `+inf` for min-plus, `false` for or-and, `MAX`
//! for the parent semirings). Masks, [`Reductions::nvals`] and [`Objects::compact`] use this rule;
//! because the zero annihilates `mul`, a missing input entry never contributes to a product.
//!
//! # Products
//! Every product calls `S::mul_at(matrix_entry, vector_entry, k)` with `k` the inner index:
//! - [`Products::mxm`]: `y(i, c) = add_k mul(A(i, k), X(k, c), k)` (SpMV when `X` has one
//!   column, SpMM otherwise; the "pull" direction);
//! - [`Products::vxm`]: `y(j) = add_k mul(A(k, j), x(k), k)` over the entries of a sparse `x`
//!   (SpMSpV; the "push" direction, which scatters along the rows of `A`);
//! - [`Products::gemm`]: `C(i, j) = add_k mul(A(i, k), B(k, j), k)` on dense arrays.
//!
//! Output masks ([`Mask`]) and accumulation ([`Accum`]) follow GraphBLAS:
//! `y<mask> = accum(y, t)`: where the mask forbids, `y` keeps its value; where it allows, `y`
//! becomes `t` ([`Accum::Replace`]) or `add(y, t)` ([`Accum::Add`]).
//!
//! # Contracts
//! Shapes must agree; a mismatch is a bug in the caller and panics. Failures that depend on
//! the machine (memory, a driver, a kernel compiler) return [`Error`](crate::Error).

mod buckets;
pub mod cpu;
mod ewise;
mod frontier;
mod objects;
mod operators;
mod products;
mod reductions;
mod types;

pub(crate) use buckets::waiting_again;
pub use buckets::{Buckets, NARROWINGS, buckets_by_fixpoint};
pub use ewise::ElementWise;
pub use ewise::cloned;
pub(crate) use ewise::copy_dense;
pub use frontier::{Frontier, fixpoint_by_steps};
pub use objects::Objects;
pub use operators::{Bound, Combine, Operators};
pub use products::Products;
pub use products::check_sddmm;
pub use reductions::Reductions;
pub use types::{
    Accum, BackendKind, Counters, Defer, Ewise, LevelsFound, Mask, MatrixInfo, MatrixMask,
    NO_PARENT, Parents, QueueInfo, RelaxStep, StepOutputs, UNREACHED, UnaryOp,
};

use semigraph_semiring::Semiring;

use crate::error::Result;

/// Everything an algorithm may ask of a backend: the five roles of the algebra, one file each,
/// and the compositions of them that a backend may fuse.
///
/// | role | file | what |
/// |------|------|------|
/// | [`Objects`] | `objects.rs` | handles: build, view, read, masks, counters |
/// | [`Products`] | `products.rs` | `mxm` (SpMV/SpMM), `vxm` (SpMSpV), `gemm`, `sddmm`, `spgemm`, `witness` |
/// | [`ElementWise`] | `ewise.rs` | `ewise`, `apply`, `assign_at`, `improve`, `union`, `select_range`, `transpose` |
/// | [`Reductions`] | `reductions.rs` | `reduce`, `reduce_sparse`, `nvals` |
/// | [`Operators`] | `operators.rs` | operators of one's own: `apply_op`, `ewise_op`, `select`, `ewise_matrix`, `gather`, `scatter_op`, `extract_rows`, `reduce_rows`, ... |
///
/// Frontier queues ([`Frontier`], `frontier.rs`) are opt-in plumbing beside this trait.
///
/// Implemented by [`CpuBackend`](crate::CpuBackend) here and by the GPU backend of
/// `semigraph-gpu`. The shared test suite (`semigraph_testkit::backend_suite`) runs every method
/// on every format and built-in semiring, so a new backend is checked against the CPU one by
/// adding one line there. Calling methods on a concrete backend needs the role traits in scope:
/// `use semigraph_algos::prelude::*;`.
pub trait Backend: Objects + Products + ElementWise + Reductions + Operators {
    /// One relaxation step from the frontier `x`: `t = x (+).(x) A` (SpMSpV, masked),
    /// `changed = improve(d, t)`, and, with `parents`, the [`witness`](Products::witness) of
    /// every changed position (the frontier vertex its new value came from). Returns
    /// `changed` with the new values: the next frontier.
    ///
    /// The provided version composes the three operations; a backend may fuse them.
    ///
    /// ```
    /// use semigraph_algos::prelude::*;
    /// use semigraph_formats::{ConvertOptions, Format};
    /// use semigraph_semiring::MinPlus;
    ///
    /// let b = CpuBackend::new();
    /// // Arcs 0 -> 1 (weight 4) and 1 -> 2 (weight 1).
    /// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(3, &[(0, 1, 4), (1, 2, 1)])?, Format::Csr, &ConvertOptions::default())?;
    /// let mut d = b.dense::<MinPlus<i32>>(3, 1, &[0, i32::MAX, i32::MAX])?;
    /// let mut p = b.dense_filled::<Parents>(3, 1, NO_PARENT)?;
    /// let frontier = b.sparse::<MinPlus<i32>>(3, &[0], &[0])?;
    /// let next = b.relax(&mut d, Some(&mut p), &frontier, &a, Mask::All)?;
    /// assert_eq!(b.read_sparse(&next)?, (vec![1], vec![4]));
    /// assert_eq!(b.read_dense(&p)?[1], 0); // vertex 1 was reached from 0
    /// # Ok::<(), semigraph_algos::Error>(())
    /// ```
    fn relax<S: Semiring>(
        &self,
        d: &mut Self::Dense<S>,
        parents: Option<&mut Self::Dense<Parents>>,
        x: &Self::Sparse<S>,
        a: &Self::Matrix<S>,
        mask: Mask<'_, Self>,
    ) -> Result<Self::Sparse<S>> {
        let t = self.vxm(x, a, mask)?;
        let changed = self.improve(d, &t)?;
        if let Some(p) = parents {
            self.witness(p, x, a, d, &changed)?;
        }
        Ok(changed)
    }
}
