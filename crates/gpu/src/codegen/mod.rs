//! CUDA C++ generation: one kernel per [`KernelKey`], from a semiring's [`CudaSemiring`].
//!
//! A generated source is the semiring's prelude ([`CudaSemiring::prelude`]), the shared helpers
//! of this module ([`COMMON`]; the queue relaxations add tile helpers) and one kernel template,
//! by role in `matrix.rs`, `vector.rs` and `queue.rs`. Its one `extern "C"` kernel is named by
//! its key ([`KernelKey::name`]), so a name seen in a profiler or an error reads back into the
//! key with [`KernelKey::parse`]. Nothing from `std::` is used: NVRTC has no C++ library.
//!
//! Every template is generic over the semiring through the prelude's names only (`sr_t`,
//! `SR_ZERO`, `sr_add`, `sr_mul`, `sr_is_terminal`, `sr_atomic_add`, `sr_is_zero`,
//! `sr_improves`); padding is always `SR_ZERO`, never a literal 0.

mod assemble;
mod common;
mod matrix;
mod ops;
mod queue;
mod relax;
mod scan;
mod sparse;
mod spgemm;
mod traverse;
mod vector;

use std::fmt;

pub use assemble::{source, source_op};
pub use common::COMMON;

use semigraph_semiring::CudaSemiring;
use semigraph_semiring::ops::{CudaOp, OpKind};

/// The index type of every generated kernel (row pointers, column indices, sparse indices).
pub const INDEX_TYPE: &str = "u32";

/// Which kernel: the operation, the format it reads and the variant, as one enum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kernel {
    /// SpMV/SpMM over CSR, a thread per output (row, column).
    SpmvCsrScalar,
    /// SpMV/SpMM over CSR, a sub-warp of 2 to 32 lanes per output (row, column).
    SpmvCsrVector,
    /// SpMV/SpMM over CSR, load-balanced: each thread takes an equal slice of the entries
    /// (row splitting), and partial rows meet through the semiring's atomic add.
    SpmvCsrSplit,
    /// SpMV/SpMM over CSR, adaptive (CSR-Adaptive): blocks of short rows stream their
    /// entries' products through shared memory, a long row gets a block (or several) of its
    /// own; planned on the host per matrix.
    SpmvCsrAdaptive,
    /// The second pass of [`Kernel::SpmvCsrAdaptive`]: the rows split over several blocks.
    SpmvCsrAdaptiveFinish,
    /// SpMV/SpMM over column-major ELL, a thread per output.
    SpmvEll,
    /// SpMV/SpMM over DIA, a thread per output.
    SpmvDia,
    /// SpMV/SpMM over COO, a thread per entry and atomic adds (also HYB's overflow part).
    SpmvCoo,
    /// Dense GEMV/GEMM-by-vectors over a row-major matrix, a warp per output.
    SpmvDense,
    /// SpMSpV (push): a warp per frontier entry scatters along its CSR row with atomic adds.
    VxmCsr,
    /// Dense semiring GEMM, 16 x 16 tiles through shared memory, one output per thread.
    Gemm,
    /// Dense semiring GEMM with register tiles: 128 x 128 outputs per block of 16 x 16 threads,
    /// 8 x 8 per thread (see [`crate::GemmKernel`]).
    GemmReg,
    /// Dense semiring GEMM on two 16-bit halves per word
    /// ([`Packed16`](semigraph_semiring::Packed16)): 128 x 128 outputs per block of 16 x 16
    /// threads, 8 x 8 per thread in 8 x 4 words; runs when every operand lies in the packed
    /// domain, [`Kernel::GemmReg`] otherwise. Exists for semirings with a packed form.
    GemmPacked,
    /// Dense transpose through 32 x 32 tiles in shared memory.
    Transpose,
    /// `y<mask> = op(y, x)`: replace, add or mul.
    Ewise,
    /// `y<mask> = op(y, c)`: fill, mul by, add to.
    Apply,
    /// `y[idx[e]] = v` or `add(y[idx[e]], v)` for the entries of a sparse vector.
    Scatter,
    /// `add` over the allowed positions, into one value.
    Reduce,
    /// Number of entries (values that are not the zero).
    Count,
    /// Whether every value lies in the domain of the semiring's fast multiply-add
    /// ([`CudaSemiring::fast_fma`](semigraph_semiring::CudaSemiring::fast_fma)).
    FastCheck,
    /// Compaction, pass 1: entries per tile.
    CompactCount,
    /// Compaction, pass 3: writes the entries of each tile at its scanned offset.
    CompactWrite,
    /// Sparse relaxation: `d[i] = add(d[i], v)` where `sr_improves`, and what changed.
    Improve,
    /// Dense relaxation: as [`Kernel::Improve`] at every position, counting changes.
    ImproveDense,
    /// Value-range selection: flags the entries with `lo <= v < hi`.
    SelectRange,
    /// Witnesses of a push product: the smallest frontier index whose term attains `d(j)`.
    Witness,
    /// Compaction, pass 2: exclusive scan of the tile counts (semiring-independent).
    Scan,
    /// A matrix's values of one semiring recoded for another: the source's zero becomes the
    /// target's zero, every other value is kept (a view) or becomes the target's one (a
    /// pattern). Semiring-independent: sizes and bits are arguments.
    Recode,
    /// A queue relaxation step, phase 1: terms along the frontier's arcs, atomic improvement,
    /// each improved vertex appended once.
    QueueRelax,
    /// Phase 2: the witness (smallest frontier vertex attaining it) of each improvement.
    QueueWitness,
    /// Phase 3: the output queue's values from the final distances.
    QueueFill,
    /// Sparse x sparse product, phase 1: an upper bound on each output row's terms.
    SpgemmBound,
    /// Phase 2: each row's terms (under the mask), keyed by column and position; a warp per
    /// row.
    SpgemmExpand,
    /// A product under a mask by one dot product per mask entry (rows of `A` and `B^T`).
    SpgemmDot,
    /// A sampled dense-dense product: one dot product of a row of `X` and a row of `Y` per
    /// mask entry.
    Sddmm,
    /// Sorts each row's keyed values, combines equal columns with `add` in key order, drops
    /// the zeros (the product's phase 3, and the transpose's).
    SortRows,
    /// Copies each sorted row to the CSR arrays (the last phase of a product or transpose).
    GatherRows,
    /// [`Kernel::SortRows`] for rows of 33 to 2,048 values, a block per row sorting in shared
    /// memory.
    SortRowsBlock,
    /// The long rows of a product, a block per row with a dense accumulator.
    SpgemmLong,
    /// [`Kernel::SortRows`] for rows of more than 2,048 values (a transpose's long columns), a
    /// block per row sorting in global memory.
    SortRowsLong,
    /// Matrix transpose, phase 1: entries per column.
    ColCount,
    /// Phase 2: each entry to its column's segment.
    ColScatter,
    /// A CSR matrix from arcs (after [`Kernel::ColCount`] over their sources): each arc to its
    /// row's segment, keyed by column and list position.
    CooScatter,
    /// Several relaxation steps of a small frontier in one launch of one block.
    QueueRelaxLoop,
    /// Several relaxation steps in one cooperative launch, grid-wide barriers between phases.
    QueueRelaxGrid,
    /// Relaxation to a fixpoint in any order: a worklist taken by warps as it fills, no steps.
    QueueRelaxAsync,
    /// The levels of a traversal from a queue's vertices in one block, the visited set and the
    /// frontier in shared memory (semiring-independent).
    QueueLevels,
    /// The levels [`Kernel::QueueLevels`] logged, written to the levels array over the whole
    /// GPU (semiring-independent).
    QueueLevelsLog,
    /// A CSR matrix's rows as four slots each (16 bytes a row, the longer rows' tails left
    /// in the CSR) for [`Kernel::QueueLevels`]: a road network's row in one read
    /// (semiring-independent).
    QueueLevelsRows,
    /// The levels of a traversal continued over the whole GPU (one cooperative launch, a
    /// vertex taken by lowering its level, one grid-wide barrier a stage of one or more
    /// levels): the wide levels that [`Kernel::QueueLevels`]'s one block hands back
    /// (semiring-independent).
    QueueLevelsGrid,
    /// Routes a queue's vertices by their current value into two queues (near/far).
    QueueSplit,
    /// `add` over a queue's values.
    QueueReduce,
    /// The number of arcs leaving a queue's vertices.
    QueueArcs,
    /// Dense relaxation that enqueues the improved positions.
    QueueImproveDense,
    /// Scatters a queue's values (or a constant) into a dense array.
    QueueScatter,
    /// Adds a constant to a queue's ids (a block's entries renumbered into the whole graph).
    QueueShift,
    /// Marks a queue's vertices (shifted by a constant) in a bitmap, and its step count after
    /// the bitmap's words (the all-gather of a large set of vertices as `n` bits).
    QueueMark,
    /// A queue from the set bits of a bitmap, every entry one constant value (warp-aggregated
    /// appends; the step count from the word after the bitmap).
    QueueFromMarks,
    /// `y<mask> = f(y)` at the entries: a unary operator, or a binary one bound to a scalar.
    ApplyOp,
    /// `y<mask> = y .f. x`: union or intersection under a binary operator.
    EwiseOp,
    /// `w(I) f= u`: scatter with a binary operator as the accumulator (atomic).
    ScatterOp,
    /// `w = u(I)`: gather by an index array.
    Gather,
    /// Rows of a CSR matrix copied to output segments (row extraction).
    RowsCopy,
    /// Rows of a CSR matrix mapped by an operator (`apply` on a matrix).
    RowsMap,
    /// Rows of a CSR matrix filtered by a select operator.
    RowsSelect,
    /// Two CSR matrices merged row by row under a binary operator (union or intersection).
    RowsMerge,
    /// Each row of a CSR matrix reduced by `add`.
    RowReduce,
    /// A CSR matrix written into a dense row-major array.
    RowsToDense,
    /// Exclusive scan of any length, pass 1: each tile's sum (semiring-independent, as the
    /// other scan and row-sizing kernels).
    ScanReduce,
    /// Pass 2: the tile sums scanned by one block, and the total.
    ScanSums,
    /// Pass 3: each tile scanned from its sum, to 64- or 32-bit offsets.
    ScanDown,
    /// The lengths of a CSR matrix's rows (listed ones, or each plus another matrix's).
    RowLens,
    /// The rows whose length (or bound) lies in a range, listed; and the largest.
    RowClasses,
    /// Each row's arg-best column (the first entry no later one improves).
    RowArg,
    /// The rows of an index matrix (one or no entry each), sized.
    IndexLens,
    /// The entries of an index matrix written.
    IndexFill,
    /// Whether two word arrays differ anywhere (a flag set by any thread that sees a
    /// difference): the pattern comparison of two matrices.
    WordsDiffer,
}

impl Kernel {
    /// Every kernel.
    pub const ALL: [Kernel; 77] = [
        Kernel::SpmvCsrScalar,
        Kernel::SpmvCsrVector,
        Kernel::SpmvCsrSplit,
        Kernel::SpmvCsrAdaptive,
        Kernel::SpmvCsrAdaptiveFinish,
        Kernel::SpmvEll,
        Kernel::SpmvDia,
        Kernel::SpmvCoo,
        Kernel::SpmvDense,
        Kernel::VxmCsr,
        Kernel::Gemm,
        Kernel::GemmReg,
        Kernel::GemmPacked,
        Kernel::Transpose,
        Kernel::Ewise,
        Kernel::Apply,
        Kernel::Scatter,
        Kernel::Reduce,
        Kernel::Count,
        Kernel::FastCheck,
        Kernel::CompactCount,
        Kernel::CompactWrite,
        Kernel::Improve,
        Kernel::ImproveDense,
        Kernel::SelectRange,
        Kernel::Witness,
        Kernel::Scan,
        Kernel::Recode,
        Kernel::QueueRelax,
        Kernel::QueueWitness,
        Kernel::QueueFill,
        Kernel::QueueRelaxLoop,
        Kernel::QueueRelaxGrid,
        Kernel::QueueRelaxAsync,
        Kernel::QueueLevels,
        Kernel::QueueLevelsLog,
        Kernel::QueueLevelsRows,
        Kernel::QueueLevelsGrid,
        Kernel::QueueSplit,
        Kernel::QueueReduce,
        Kernel::QueueArcs,
        Kernel::QueueImproveDense,
        Kernel::QueueScatter,
        Kernel::QueueShift,
        Kernel::QueueMark,
        Kernel::QueueFromMarks,
        Kernel::SpgemmBound,
        Kernel::SpgemmExpand,
        Kernel::SpgemmDot,
        Kernel::Sddmm,
        Kernel::SortRows,
        Kernel::GatherRows,
        Kernel::SortRowsBlock,
        Kernel::SpgemmLong,
        Kernel::SortRowsLong,
        Kernel::ColCount,
        Kernel::ColScatter,
        Kernel::CooScatter,
        Kernel::ApplyOp,
        Kernel::EwiseOp,
        Kernel::ScatterOp,
        Kernel::Gather,
        Kernel::RowsCopy,
        Kernel::RowsMap,
        Kernel::RowsSelect,
        Kernel::RowsMerge,
        Kernel::RowReduce,
        Kernel::RowsToDense,
        Kernel::ScanReduce,
        Kernel::ScanSums,
        Kernel::ScanDown,
        Kernel::RowLens,
        Kernel::RowClasses,
        Kernel::RowArg,
        Kernel::IndexLens,
        Kernel::IndexFill,
        Kernel::WordsDiffer,
    ];

    /// `(operation, format, variant)`: the three key fields this kernel fills.
    pub const fn parts(self) -> (&'static str, &'static str, &'static str) {
        match self {
            Kernel::SpmvCsrScalar => ("spmv", "csr", "scalar"),
            Kernel::SpmvCsrVector => ("spmv", "csr", "vector"),
            Kernel::SpmvCsrSplit => ("spmv", "csr", "split"),
            Kernel::SpmvCsrAdaptive => ("spmv", "csr", "adaptive"),
            Kernel::SpmvCsrAdaptiveFinish => ("spmv", "csr", "adaptive_finish"),
            Kernel::SpmvEll => ("spmv", "ell", "thread"),
            Kernel::SpmvDia => ("spmv", "dia", "thread"),
            Kernel::SpmvCoo => ("spmv", "coo", "atomic"),
            Kernel::SpmvDense => ("spmv", "dense", "warp"),
            Kernel::VxmCsr => ("vxm", "csr", "warp"),
            Kernel::Gemm => ("gemm", "dense", "tile16"),
            Kernel::GemmReg => ("gemm", "dense", "reg128"),
            Kernel::GemmPacked => ("gemm", "dense", "packed16x2"),
            Kernel::Transpose => ("transpose", "dense", "tile32"),
            Kernel::Ewise => ("ewise", "vec", "base"),
            Kernel::Apply => ("apply", "vec", "base"),
            Kernel::Scatter => ("scatter", "vec", "base"),
            Kernel::Reduce => ("reduce", "vec", "base"),
            Kernel::Count => ("count", "vec", "base"),
            Kernel::FastCheck => ("fast_check", "vec", "base"),
            Kernel::CompactCount => ("compact", "vec", "count"),
            Kernel::CompactWrite => ("compact", "vec", "write"),
            Kernel::Improve => ("improve", "sparse", "base"),
            Kernel::ImproveDense => ("improve", "vec", "base"),
            Kernel::SelectRange => ("select_range", "sparse", "base"),
            Kernel::Witness => ("witness", "csr", "groups"),
            Kernel::Scan => ("scan", "vec", "base"),
            Kernel::Recode => ("recode", "vec", "base"),
            Kernel::QueueRelax => ("relax", "queue", "tiles"),
            Kernel::QueueWitness => ("witness", "queue", "tiles"),
            Kernel::QueueFill => ("fill", "queue", "base"),
            Kernel::QueueRelaxLoop => ("relax", "queue", "block_loop"),
            Kernel::QueueRelaxGrid => ("relax", "queue", "grid_loop"),
            Kernel::QueueRelaxAsync => ("relax", "queue", "async"),
            Kernel::QueueLevels => ("levels", "queue", "block"),
            Kernel::QueueLevelsLog => ("levels", "queue", "log"),
            Kernel::QueueLevelsRows => ("levels", "csr", "rows4"),
            Kernel::QueueLevelsGrid => ("levels", "queue", "grid"),
            Kernel::QueueSplit => ("split", "queue", "base"),
            Kernel::QueueReduce => ("reduce", "queue", "base"),
            Kernel::QueueArcs => ("arcs", "queue", "base"),
            Kernel::QueueImproveDense => ("improve", "queue", "dense"),
            Kernel::QueueScatter => ("scatter", "queue", "base"),
            Kernel::QueueShift => ("shift", "queue", "base"),
            Kernel::QueueMark => ("mark", "queue", "base"),
            Kernel::QueueFromMarks => ("from_marks", "queue", "base"),
            Kernel::SpgemmBound => ("spgemm", "csr", "bound"),
            Kernel::SpgemmExpand => ("spgemm", "csr", "expand"),
            Kernel::SpgemmDot => ("spgemm", "csr", "dot"),
            Kernel::Sddmm => ("sddmm", "csr", "dot"),
            Kernel::SortRows => ("sort_rows", "csr", "warp"),
            Kernel::SortRowsBlock => ("sort_rows", "csr", "bitonic"),
            Kernel::SpgemmLong => ("spgemm", "csr", "long_rows"),
            Kernel::SortRowsLong => ("sort_rows", "csr", "bitonic_global"),
            Kernel::GatherRows => ("gather_rows", "csr", "base"),
            Kernel::ColCount => ("col_count", "csr", "base"),
            Kernel::ColScatter => ("col_scatter", "csr", "base"),
            Kernel::CooScatter => ("coo_scatter", "coo", "base"),
            Kernel::ApplyOp => ("apply", "vec", "op"),
            Kernel::EwiseOp => ("ewise", "vec", "op"),
            Kernel::ScatterOp => ("scatter", "vec", "op"),
            Kernel::Gather => ("gather", "vec", "base"),
            Kernel::RowsCopy => ("rows", "csr", "copy"),
            Kernel::RowsMap => ("rows", "csr", "map"),
            Kernel::RowsSelect => ("rows", "csr", "select"),
            Kernel::RowsMerge => ("rows", "csr", "merge"),
            Kernel::RowReduce => ("reduce", "csr", "rows"),
            Kernel::RowsToDense => ("to_dense", "csr", "base"),
            Kernel::ScanReduce => ("scan", "vec", "reduce"),
            Kernel::ScanSums => ("scan", "vec", "sums"),
            Kernel::ScanDown => ("scan", "vec", "down"),
            Kernel::RowLens => ("row_lens", "csr", "base"),
            Kernel::RowClasses => ("row_classes", "csr", "base"),
            Kernel::RowArg => ("reduce", "csr", "arg"),
            Kernel::IndexLens => ("index_matrix", "csr", "lens"),
            Kernel::IndexFill => ("index_matrix", "csr", "fill"),
            Kernel::WordsDiffer => ("differ", "vec", "words"),
        }
    }

    /// The kinds of operator this kernel is generated with (empty: none; it takes its
    /// operator's prelude, [`CudaOp::prelude_after`], and the operator's key field).
    pub const fn op_kinds(self) -> &'static [OpKind] {
        match self {
            Kernel::ApplyOp | Kernel::RowsMap => &[OpKind::Unary, OpKind::Binary],
            Kernel::EwiseOp | Kernel::ScatterOp | Kernel::RowsMerge => &[OpKind::Binary],
            Kernel::RowsSelect => &[OpKind::Select],
            _ => &[],
        }
    }

    /// Whether this kernel exists for semiring `sr` (`None`: the kernel is
    /// semiring-independent).
    pub fn applies_to(self, sr: Option<&CudaSemiring>) -> bool {
        match self {
            Kernel::Scan
            | Kernel::Recode
            | Kernel::ScanReduce
            | Kernel::ScanSums
            | Kernel::ScanDown
            | Kernel::RowLens
            | Kernel::RowClasses
            | Kernel::IndexLens
            | Kernel::WordsDiffer
            | Kernel::QueueLevels
            | Kernel::QueueLevelsLog
            | Kernel::QueueLevelsRows
            | Kernel::QueueLevelsGrid => sr.is_none(),
            Kernel::GemmPacked => sr.is_some_and(|s| s.packed16.is_some()),
            _ => sr.is_some(),
        }
    }
}

/// The decodable name of a generated kernel:
/// `sg__{operation}__{format}__{semiring}__{value type}__{index type}__{variant}`, e.g.
/// `sg__spmv__csr__min_plus__f32__u32__vector`, and for a kernel of an operator
/// ([`Kernel::op_kinds`]) `__{operator}` after it (`sg__ewise__vec__min_plus__f32__u32__op__b_min`).
/// Semiring-independent kernels use the semiring name `none` and the value type `u32`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelKey {
    /// The kernel template.
    pub kernel: Kernel,
    /// Semiring name ([`semigraph_semiring::Semiring::NAME`]) or `none`.
    pub semiring: String,
    /// Value type name ([`ScalarType::name`](semigraph_semiring::ScalarType::name)).
    pub value_type: String,
    /// The operator's key field ([`CudaOp::key`]: kind letter and name), for the kernels of an
    /// operator.
    pub op: Option<String>,
}

impl KernelKey {
    /// The key of `kernel` for semiring `sr` (or of a semiring-independent kernel).
    pub fn new(kernel: Kernel, sr: Option<&CudaSemiring>) -> KernelKey {
        match sr {
            Some(sr) => KernelKey {
                kernel,
                semiring: sr.name.to_string(),
                value_type: sr.value_type.name().to_string(),
                op: None,
            },
            None => KernelKey {
                kernel,
                semiring: "none".into(),
                value_type: "u32".into(),
                op: None,
            },
        }
    }

    /// The key of `kernel` for semiring `sr` and operator `op`.
    pub fn with_op(kernel: Kernel, sr: &CudaSemiring, op: &CudaOp) -> KernelKey {
        KernelKey {
            op: Some(op.key()),
            ..KernelKey::new(kernel, Some(sr))
        }
    }

    /// The kernel's name (its `extern "C"` symbol).
    pub fn name(&self) -> String {
        let (op, format, variant) = self.kernel.parts();
        let mut name = format!(
            "sg__{op}__{format}__{}__{}__{INDEX_TYPE}__{variant}",
            self.semiring, self.value_type
        );
        if let Some(o) = &self.op {
            name.push_str("__");
            name.push_str(o);
        }
        name
    }

    /// Reads a name made by [`KernelKey::name`] back into its key; `None` for any other
    /// string.
    pub fn parse(name: &str) -> Option<KernelKey> {
        let f: Vec<&str> = name.split("__").collect();
        let (fields, operator) = match f.as_slice() {
            [rest @ .., o] if f.len() == 8 => (rest, Some(o.to_string())),
            all => (all, None),
        };
        let [sg, op, format, semiring, value_type, index, variant] = fields else {
            return None;
        };
        if *sg != "sg" || *index != INDEX_TYPE {
            return None;
        }
        let kernel = Kernel::ALL
            .into_iter()
            .find(|k| k.parts() == (*op, *format, *variant))?;
        if kernel.op_kinds().is_empty() != operator.is_none() {
            return None;
        }
        Some(KernelKey {
            kernel,
            semiring: semiring.to_string(),
            value_type: value_type.to_string(),
            op: operator,
        })
    }
}

impl fmt::Display for KernelKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use semigraph_semiring::{MinPlus, Semiring};

    #[test]
    fn keys_round_trip() {
        let sr = MinPlus::<f32>::cuda();
        for k in Kernel::ALL.into_iter().filter(|k| k.op_kinds().is_empty()) {
            let key = if k.applies_to(None) {
                KernelKey::new(k, None)
            } else {
                KernelKey::new(k, Some(&sr))
            };
            assert_eq!(KernelKey::parse(&key.name()), Some(key.clone()), "{key}");
        }
        assert_eq!(
            KernelKey::new(Kernel::SpmvCsrVector, Some(&sr)).name(),
            "sg__spmv__csr__min_plus__f32__u32__vector"
        );
        assert_eq!(
            KernelKey::parse("sg__spmv__csr__min_plus__f32__u64__vector"),
            None
        );
        assert_eq!(KernelKey::parse("spmv"), None);
    }
}
