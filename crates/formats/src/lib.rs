//! Sparse formats, graph I/O and generators for semigraph.
//!
//! * Formats, all generic over the semiring `S` (whose zero pads them) and the index type
//!   `I` (`u32` by default, `u64` for huge graphs): [`Coo`], [`Csr`] (the hub: every
//!   conversion goes through it), [`Ell`], [`Dia`], [`Hyb`] and [`Dense`], plus
//!   [`SparseMatrix`], one of them chosen at run time.
//! * [`Stats`]: structure statistics and a first format recommendation.
//! * [`io`]: readers and writers for Matrix Market, DIMACS, PACE, SNAP/GAP edge lists, LDBC
//!   Graphalytics, adjacency lists and GML, gzip/xz-compressed or not, into an [`EdgeList`].
//! * [`generate`]: deterministic generators (Kronecker/R-MAT, uniform random, grids, small shapes).
//!
//! ```
//! use semigraph_formats::{generate, ConvertOptions, Csr, Format, SparseMatrix};
//! use semigraph_semiring::MinPlus;
//!
//! let g = generate::grid(3, 4, 1, 9, 7); // a 3 x 4 grid with weights in 1..=9
//! let a: Csr<MinPlus<f32>> = g.to_csr().unwrap();
//! let dia = SparseMatrix::from_csr(&a, Format::Dia, &ConvertOptions::default()).unwrap();
//! let x = vec![0.0f32; 12];
//! assert_eq!(dia.spmv(&x), a.spmv(&x));
//! ```
//!
//! Error policy: contract violations (out-of-bounds pushes, vectors of the wrong length)
//! panic; data and environment problems return [`FormatError`] or [`ReadError`].

mod arcs;
mod build;
pub mod coo;
pub mod csr;
pub mod dense;
pub mod dia;
pub mod edgelist;
pub mod ell;
pub mod entries;
pub mod error;
pub mod format;
pub mod generate;
pub mod hyb;
pub mod index;
pub mod interop;
pub mod io;
pub mod matrix;
pub mod memory;
pub mod named;
mod place;
pub mod rng;
pub mod select;
pub mod stats;
pub mod storage;
mod transpose;
pub mod weight;

pub use build::csr_build_bytes;
pub use coo::Coo;
pub use csr::Csr;
pub use dense::Dense;
pub use dia::Dia;
pub use edgelist::{Combine, EdgeList, Weights};
pub use ell::Ell;
pub use entries::{pattern_value, view_value};
pub use error::{FormatError, ReadError, ReadErrorKind};
pub use format::{ConvertOptions, Format};
pub use hyb::Hyb;
pub use index::Index;
pub use matrix::SparseMatrix;
pub use named::Named;
pub use select::Features;
pub use stats::Stats;
pub use storage::Storage;
pub use transpose::transpose_bytes;
pub use weight::{Weight, WeightValue, real_text};
