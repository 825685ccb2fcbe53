//! The types the [`Backend`](super::Backend) interface speaks in: kinds, shapes, counters, masks,
//! accumulation and operators, and what a relaxation step writes or defers.

use semigraph_formats::Format;
use semigraph_semiring::{MinSecondI, Semiring};

use super::{Frontier, Objects};

/// Where a backend computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BackendKind {
    /// Host CPU.
    Cpu,
    /// An NVIDIA GPU.
    Gpu,
}

/// Shape and layout of a [`Objects::Matrix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixInfo {
    /// Rows.
    pub nrows: usize,
    /// Columns.
    pub ncols: usize,
    /// Stored entries (of the CSR it was built from).
    pub nnz: usize,
    /// The format the backend stores it in.
    pub format: Format,
}

/// What [`Frontier::queue_len`] reads back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueueInfo {
    /// Entries in the queue.
    pub len: usize,
    /// Entries in this queue and in every queue before it along a chain of
    /// [`queue_relax`](Frontier::queue_relax) steps (the vertices a traversal has reached).
    pub total: usize,
    /// Steps with a non-empty input that led to this queue ([`Frontier::queue_relax`] carries the
    /// count from its input and adds one when that input had entries).
    pub steps: usize,
}

/// Work counters of a backend, for benchmarks: what a run cost beyond arithmetic.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Kernels launched (0 on the CPU).
    pub launches: u64,
    /// Times the host waited for the device (reads back included; 0 on the CPU).
    pub syncs: u64,
    /// Device allocations (0 on the CPU).
    pub allocations: u64,
}

impl std::ops::Sub for Counters {
    type Output = Counters;
    fn sub(self, o: Counters) -> Counters {
        Counters {
            launches: self.launches - o.launches,
            syncs: self.syncs - o.syncs,
            allocations: self.allocations - o.allocations,
        }
    }
}

/// What a relaxation step writes besides the values and the next queue (see
/// [`Frontier::queue_relax`]).
pub struct StepOutputs<'a, B: Objects + ?Sized + 'a> {
    /// The witness (predecessor) of each improved vertex.
    pub parents: Option<&'a mut B::Dense<Parents>>,
    /// The step number of each improved vertex (the output queue's step count).
    pub steps: Option<&'a mut B::Dense<Parents>>,
    /// Only vertices whose `steps` entry is empty (never reached) may improve: the visited
    /// set of a traversal, as a complemented mask over the array the step writes (read before
    /// the step, like every mask).
    pub only_new: bool,
}

impl<'a, B: Objects + ?Sized + 'a> StepOutputs<'a, B> {
    /// Nothing besides the values.
    pub fn none() -> Self {
        StepOutputs {
            parents: None,
            steps: None,
            only_new: false,
        }
    }

    /// The same outputs, reborrowed for one more step.
    pub fn reborrow(&mut self) -> StepOutputs<'_, B> {
        StepOutputs {
            parents: self.parents.as_deref_mut(),
            steps: self.steps.as_deref_mut(),
            only_new: self.only_new,
        }
    }
}

/// One relaxation step's operands besides its queues (see [`Frontier::queue_relax`]): the
/// values `d` it improves, the matrix `a` it follows, the mask on its outputs, what else it
/// writes, and where entries past a bound wait.
///
/// ```
/// use semigraph_algos::prelude::*;
/// use semigraph_formats::{ConvertOptions, Format};
/// use semigraph_semiring::MinPlus;
///
/// let b = CpuBackend::new();
/// let a = b.matrix(&arcs_to_csr::<MinPlus<i32>>(2, &[(0, 1, 4)])?, Format::Csr, &ConvertOptions::default())?;
/// let mut d = b.dense::<MinPlus<i32>>(2, 1, &[0, i32::MAX])?;
/// let mut p = b.dense_filled::<Parents>(2, 1, NO_PARENT)?;
/// let (mut from, mut to) = (b.queue::<MinPlus<i32>>(2)?, b.queue::<MinPlus<i32>>(2)?);
/// b.queue_set(&mut from, &[0], &[0], 0)?;
/// b.queue_relax(RelaxStep::new(&mut d, &a).parents(&mut p), &from, &mut to)?;
/// assert_eq!(b.read_dense(&p)?, vec![NO_PARENT, 0]);
/// # Ok::<(), semigraph_algos::Error>(())
/// ```
pub struct RelaxStep<'a, 'm, B: Frontier + ?Sized + 'a + 'm, S: Semiring> {
    /// The values the step improves.
    pub d: &'a mut B::Dense<S>,
    /// The matrix it follows (square for [`Frontier::queue_relax_steps`]).
    pub a: &'a B::Matrix<S>,
    /// Which outputs may change (read before the step; its own lifetime `'m`, as a mask
    /// view cannot be shortened).
    pub mask: Mask<'m, B>,
    /// What it writes besides `d` and the next queue.
    pub out: StepOutputs<'a, B>,
    /// Where entries at or past a bound wait instead of being relaxed.
    pub defer: Option<Defer<'a, B, S>>,
}

impl<'a, 'm, B: Frontier + ?Sized + 'a + 'm, S: Semiring> RelaxStep<'a, 'm, B, S> {
    /// A step that improves `d` along `a`, with no mask, no other output and no deferral.
    pub fn new(d: &'a mut B::Dense<S>, a: &'a B::Matrix<S>) -> Self {
        RelaxStep {
            d,
            a,
            mask: Mask::All,
            out: StepOutputs::none(),
            defer: None,
        }
    }

    /// Also writes the witness of each improvement into `p` ([`StepOutputs::parents`]).
    pub fn parents(mut self, p: &'a mut B::Dense<Parents>) -> Self {
        self.out.parents = Some(p);
        self
    }

    /// Also writes each improved vertex's step number into `s`; with `only_new`, only vertices
    /// whose entry of `s` is empty may improve ([`StepOutputs::steps`]).
    pub fn steps(mut self, s: &'a mut B::Dense<Parents>, only_new: bool) -> Self {
        self.out.steps = Some(s);
        self.out.only_new = only_new;
        self
    }

    /// Only outputs that `mask` allows may change.
    pub fn mask(mut self, mask: Mask<'m, B>) -> Self {
        self.mask = mask;
        self
    }

    /// Entries whose value is not below `bound` wait in `far` ([`Defer`]).
    pub fn defer(mut self, bound: S::T, far: &'a mut B::Queue<S>) -> Self {
        self.defer = Some(Defer { bound, far });
        self
    }

    /// Panics unless the step writes `d` only (no parents or step numbers; a deferral sets
    /// entries aside): what [`Frontier::queue_relax_fixpoint`] takes, whose order of
    /// relaxations is the backend's.
    pub fn assert_values_only(&self) {
        assert!(
            self.out.parents.is_none() && self.out.steps.is_none(),
            "queue_relax_fixpoint: the step writes d only (no parents or step numbers)"
        );
    }

    /// The same step, reborrowed for one more.
    pub fn reborrow(&mut self) -> RelaxStep<'_, 'm, B, S> {
        RelaxStep {
            d: &mut *self.d,
            a: self.a,
            mask: self.mask,
            out: self.out.reborrow(),
            defer: self.defer.as_mut().map(Defer::reborrow),
        }
    }
}

/// An output mask over a sparse matrix of the product's semiring (see
/// [`Products::spgemm`](super::Products::spgemm)): an entry of the mask is a stored value that
/// is not the zero. A mask of another semiring is first seen as this one
/// ([`Objects::pattern`](super::Objects::pattern), which shares its indices on a GPU).
pub enum MatrixMask<'a, B: Objects + ?Sized + 'a, S: Semiring> {
    /// Every position.
    All,
    /// Only positions where the mask has an entry.
    Keep(&'a B::Matrix<S>),
    /// Only positions where the mask has no entry (a complemented mask).
    Skip(&'a B::Matrix<S>),
}

impl<'a, B: Objects + ?Sized + 'a, S: Semiring> Clone for MatrixMask<'a, B, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<'a, B: Objects + ?Sized + 'a, S: Semiring> Copy for MatrixMask<'a, B, S> {}

/// Entries a relaxation step sets aside instead of relaxing them (see
/// [`Frontier::queue_relax`]): those whose value is not below `bound` (`!(x < bound)`, as the
/// `hi` of [`Frontier::queue_split`]) are appended to `far` with their value, each vertex once
/// until `far` is cleared or set. The near phase of delta-stepping: a bucket's steps run back
/// to back, and the work of later buckets waits in `far`.
pub struct Defer<'a, B: Frontier + ?Sized + 'a, S: Semiring> {
    /// Entries with values from here on wait.
    pub bound: S::T,
    /// Where they wait.
    pub far: &'a mut B::Queue<S>,
}

impl<'a, B: Frontier + ?Sized + 'a, S: Semiring> Defer<'a, B, S> {
    /// The same deferral, reborrowed for one more step.
    pub fn reborrow(&mut self) -> Defer<'_, B, S> {
        Defer {
            bound: self.bound,
            far: &mut *self.far,
        }
    }
}

/// Arrays of vertex ids or step numbers (parents, predecessors, witnesses, levels): `u32`
/// values whose zero, `u32::MAX` ([`NO_PARENT`]), means "none".
pub type Parents = MinSecondI<u32>;

/// Parent (or predecessor, witness) of a vertex that has none: the zero of [`Parents`].
pub const NO_PARENT: u32 = u32::MAX;
/// Level of a vertex that was not reached.
pub const UNREACHED: u32 = u32::MAX;

/// What [`Frontier::queue_levels`](super::Frontier::queue_levels) found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelsFound {
    /// The vertices reached, the seeds included.
    pub reached: usize,
    /// The last level (0 for seeds with no way out).
    pub depth: u32,
    /// Whether the parents asked for were written; else the caller finds them (a
    /// [`witness`](super::Products::witness) pass over the levels).
    pub parents: bool,
}

/// How a result is combined with the existing output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Accum {
    /// `y = t` where the mask allows.
    #[default]
    Replace,
    /// `y = add(y, t)` where the mask allows.
    Add,
}

/// A binary element-wise operation of the semiring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ewise {
    /// `add(y, x)`.
    Add,
    /// `mul(y, x)` (index argument 0).
    Mul,
}

/// A unary operation applied at every position of a dense array that the mask allows,
/// *including positions with no entry* (whose value is the zero): unlike GraphBLAS's
/// `GrB_apply`, which leaves absent positions absent. To touch only the entries, mask with
/// the array's own entries (a copy of it as a [`Mask::Keep`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum UnaryOp<T> {
    /// `y = c`: every allowed position becomes an entry of value `c`.
    Fill(T),
    /// `y = mul(y, c)` (index argument 0): scales, or shifts in min-plus. A position with no
    /// entry stays without one (the zero annihilates).
    MulBy(T),
    /// `y = add(y, c)`: a position with no entry becomes `c` (the zero is `add`'s identity),
    /// so this writes every allowed position.
    AddTo(T),
}

/// An output mask over a dense array of any semiring (see the module docs for what an entry
/// is).
pub enum Mask<'a, B: Objects + ?Sized + 'a> {
    /// Every position.
    All,
    /// Only positions where the mask array has an entry.
    Keep(B::MaskRef<'a>),
    /// Only positions where the mask array has no entry (a complemented mask).
    Skip(B::MaskRef<'a>),
}

impl<'a, B: Objects + ?Sized + 'a> Clone for Mask<'a, B> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<'a, B: Objects + ?Sized + 'a> Copy for Mask<'a, B> {}

impl<B: Objects + ?Sized> std::fmt::Debug for Mask<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Mask::All => "All",
            Mask::Keep(_) => "Keep",
            Mask::Skip(_) => "Skip",
        })
    }
}
