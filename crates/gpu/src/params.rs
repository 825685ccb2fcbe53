//! Kernel parameter lists, each defined once: [`kernel_args!`] declares a kernel's parameters
//! by name and kind, and generates both the CUDA parameter list that replaces `PARAMS` in the
//! kernel's template and a Rust struct of named, typed arguments whose `launch` pushes them in
//! that order. A launch and its CUDA signature cannot drift apart: a missing, extra or
//! mistyped argument does not compile.

use cudarc::driver::{CudaFunction, CudaSlice, LaunchArgs, LaunchConfig, PushKernelArg};

use crate::error::{GpuError, driver};

/// A kind of kernel parameter: its CUDA declaration and the Rust argument that fills it.
pub(crate) trait ParamKind {
    /// The Rust argument.
    type Arg<'a>;
    /// The CUDA declaration, with `{}` for the name (a kind may declare several parameters).
    const C: &'static str;
    /// Pushes the argument.
    fn push<'b>(l: &mut LaunchArgs<'b>, a: &'b mut Self::Arg<'_>);
    /// A statement the kernel begins with, with `{}` for the name (none: empty).
    const PROLOGUE: &'static str = "";
}

macro_rules! slice_kind {
    ($(#[$doc:meta])* $name:ident, $t:ty, $c:literal, ref) => {
        $(#[$doc])*
        pub(crate) struct $name;
        impl ParamKind for $name {
            type Arg<'a> = &'a CudaSlice<$t>;
            const C: &'static str = $c;
            fn push<'b>(l: &mut LaunchArgs<'b>, a: &'b mut Self::Arg<'_>) {
                l.arg(*a);
            }
        }
    };
    ($(#[$doc:meta])* $name:ident, $t:ty, $c:literal, mut) => {
        $(#[$doc])*
        pub(crate) struct $name;
        impl ParamKind for $name {
            type Arg<'a> = &'a mut CudaSlice<$t>;
            const C: &'static str = $c;
            fn push<'b>(l: &mut LaunchArgs<'b>, a: &'b mut Self::Arg<'_>) {
                l.arg(&mut **a);
            }
        }
    };
}

slice_kind!(
    /// Read-only indices.
    IdxIn, u32, "const sg_idx_t* __restrict__ {}", ref
);
slice_kind!(
    /// Written indices.
    IdxOut, u32, "sg_idx_t* {}", mut
);
slice_kind!(
    /// Read-only semiring values.
    ValsIn, u8, "const sr_t* __restrict__ {}", ref
);
slice_kind!(
    /// Written (or atomically updated) semiring values.
    ValsOut, u8, "sr_t* {}", mut
);
slice_kind!(
    /// Read-only `u32` words (flags, marks).
    U32In, u32, "const unsigned int* __restrict__ {}", ref
);
slice_kind!(
    /// Written `u32` words (marks, parents, counters).
    U32Out, u32, "unsigned int* {}", mut
);
slice_kind!(
    /// Written `u32` words held in a byte buffer (a dense array of an index semiring).
    WordsOut, u8, "unsigned int* {}", mut
);
slice_kind!(
    /// Read-only `u32` words held in a byte buffer.
    WordsIn, u8, "const unsigned int* __restrict__ {}", ref
);
slice_kind!(
    /// A read-only queue header (`unsigned long long[4]`: length, steps, entries before).
    HdrIn, u64, "const unsigned long long* __restrict__ {}", ref
);
slice_kind!(
    /// A written queue header.
    HdrOut, u64, "unsigned long long* {}", mut
);

slice_kind!(
    /// Read-only bytes (values of a size given by another argument).
    BytesIn, u8, "const unsigned char* __restrict__ {}", ref
);
slice_kind!(
    /// Written bytes.
    BytesOut, u8, "unsigned char* {}", mut
);

slice_kind!(
    /// Written semiring values that no other parameter aliases (`__restrict__`).
    ValsOwn, u8, "sr_t* __restrict__ {}", mut
);
slice_kind!(
    /// Written indices that no other parameter aliases.
    IdxOwn, u32, "sg_idx_t* __restrict__ {}", mut
);
slice_kind!(
    /// Written bytes (flags, marks) that no other parameter aliases.
    BytesOwn, u8, "unsigned char* __restrict__ {}", mut
);
slice_kind!(
    /// A written 64-bit count.
    U64Out, u64, "unsigned long long* {}", mut
);
slice_kind!(
    /// Read-only 64-bit words (offsets, sort keys).
    U64In, u64, "const unsigned long long* __restrict__ {}", ref
);
slice_kind!(
    /// Read-only signed 64-bit words (DIA diagonal offsets).
    I64In, i64, "const long long* __restrict__ {}", ref
);
slice_kind!(
    /// A read-only plan of 16-byte records (`uint4`), held as `u32` words.
    PlanIn, u32, "const uint4* __restrict__ {}", ref
);

macro_rules! scalar_kind {
    ($(#[$doc:meta])* $name:ident, $t:ty, $c:literal) => {
        $(#[$doc])*
        pub(crate) struct $name;
        impl ParamKind for $name {
            type Arg<'a> = $t;
            const C: &'static str = $c;
            fn push<'b>(l: &mut LaunchArgs<'b>, a: &'b mut Self::Arg<'_>) {
                l.arg(&*a);
            }
        }
    };
}

scalar_kind!(
    /// A 32-bit count or width.
    U32, u32, "unsigned int {}"
);
scalar_kind!(
    /// A 64-bit count, or the bits of a semiring value.
    U64, u64, "unsigned long long {}"
);
scalar_kind!(
    /// A small integer switch.
    I32, i32, "int {}"
);

/// An output mask: the four parameters of `SG_MASK_PARAMS` (array, mode, element size, bits
/// of its zero); see [`crate::backend::MaskArgs`].
pub(crate) struct Mask;
impl ParamKind for Mask {
    type Arg<'a> = MaskArg<'a>;
    const C: &'static str = "SG_MASK_PARAMS";
    fn push<'b>(l: &mut LaunchArgs<'b>, a: &'b mut Self::Arg<'_>) {
        l.arg(a.buf);
        l.arg(&a.mode);
        l.arg(&a.size);
        l.arg(&a.zero);
    }
}

/// The four mask arguments.
#[derive(Clone, Copy)]
pub(crate) struct MaskArg<'a> {
    /// The mask array (any element size).
    pub buf: &'a CudaSlice<u8>,
    /// 0: every position; 1: where the mask has an entry; 2: where it has none.
    pub mode: i32,
    /// Bytes per mask element.
    pub size: i32,
    /// Bits of the mask semiring's zero.
    pub zero: u64,
}

/// A matrix's values (kind [`MatIn`]): one per entry, or one for every entry (an iso-valued
/// matrix: a pattern, an unweighted graph). The kernel sees one `sg_vals` named as the
/// parameter, indexed like an array.
pub(crate) struct MatIn;
impl ParamKind for MatIn {
    type Arg<'a> = MatValsArg<'a>;
    const C: &'static str = "const sr_t* __restrict__ {}_p, unsigned int {}_iso";
    const PROLOGUE: &'static str = "const sg_vals {} = { {}_p, {}_iso };";
    fn push<'b>(l: &mut LaunchArgs<'b>, a: &'b mut Self::Arg<'_>) {
        l.arg(a.buf);
        l.arg(&a.iso);
    }
}

/// The two arguments of a [`MatIn`] parameter.
#[derive(Clone, Copy)]
pub(crate) struct MatValsArg<'a> {
    /// The values: one per entry, or one.
    pub buf: &'a CudaSlice<u8>,
    /// 1 when `buf` holds the one value of every entry.
    pub iso: u32,
}

impl<'a> MatValsArg<'a> {
    /// One value per entry.
    pub fn full(buf: &'a CudaSlice<u8>) -> Self {
        MatValsArg { buf, iso: 0 }
    }
}

/// The CUDA declaration of one parameter of kind `K` named `name`.
pub(crate) fn decl<K: ParamKind>(name: &str) -> String {
    K::C.replace("{}", name)
}

/// The statement a kernel begins with for one parameter of kind `K` named `name` (often none).
pub(crate) fn prologue<K: ParamKind>(name: &str) -> String {
    K::PROLOGUE.replace("{}", name)
}

/// Declares kernels' parameters: `Kernel => ArgsStruct { name: Kind, ... }` (or
/// `KernelA | KernelB => ...` for kernels that share one list). Generates
/// `c_params(kernel) -> Option<String>` and, per kernel, `ArgsStruct<'a>` with a `launch`.
macro_rules! kernel_args {
    ($( $(#[$doc:meta])* $($kernel:ident)|+ => $args:ident { $( $name:ident : $kind:ident ),* $(,)? } )*) => {
        /// The CUDA parameter list of `k`, if it is declared here.
        pub(crate) fn c_params(k: $crate::codegen::Kernel) -> Option<String> {
            match k {
                $( $( $crate::codegen::Kernel::$kernel )|+ => Some(
                    [$( decl::<$kind>(stringify!($name)) ),*].join(", ")
                ), )*
                #[allow(unreachable_patterns)]
                _ => None,
            }
        }
        /// The statements `k` begins with for its parameters (empty for most kernels).
        pub(crate) fn c_prologue(k: $crate::codegen::Kernel) -> String {
            match k {
                $( $( $crate::codegen::Kernel::$kernel )|+ =>
                    [$( prologue::<$kind>(stringify!($name)) ),*].concat(), )*
                #[allow(unreachable_patterns)]
                _ => String::new(),
            }
        }
        $(
            $(#[$doc])*
            pub(crate) struct $args<'a> {
                $( pub $name: <$kind as ParamKind>::Arg<'a>, )*
            }
            impl $args<'_> {
                /// Launches `f` (this kernel, compiled for some semiring) with these arguments.
                #[allow(dead_code)]
                pub fn launch(
                    self,
                    dev: &$crate::device::Device,
                    f: &CudaFunction,
                    cfg: LaunchConfig,
                ) -> Result<(), GpuError> {
                    self.launch_as(dev, f, cfg, false)
                }
                /// [`launch`](Self::launch) with every block resident at once (a cooperative
                /// launch, for kernels whose blocks wait for one another), or an error if they
                /// cannot all be.
                #[allow(dead_code)]
                pub fn launch_cooperative(
                    self,
                    dev: &$crate::device::Device,
                    f: &CudaFunction,
                    cfg: LaunchConfig,
                ) -> Result<(), GpuError> {
                    self.launch_as(dev, f, cfg, true)
                }
                fn launch_as(
                    mut self,
                    dev: &$crate::device::Device,
                    f: &CudaFunction,
                    cfg: LaunchConfig,
                    cooperative: bool,
                ) -> Result<(), GpuError> {
                    dev.count_launch();
                    let mut l = dev.stream.launch_builder(f);
                    $( <$kind as ParamKind>::push(&mut l, &mut self.$name); )*
                    // SAFETY: the arguments were pushed in the order and with the types of the
                    // kernel's parameter list, which `c_params` generated from this same
                    // declaration; buffer sizes are the caller's contract (each launch site
                    // states the index ranges its kernel touches). A cooperative launch fails
                    // (an error, not a hang) when its blocks cannot all be resident.
                    let r = unsafe {
                        if cooperative {
                            l.launch_cooperative(cfg)
                        } else {
                            l.launch(cfg)
                        }
                    };
                    r.map_err(|e| driver(format!("launch {f:?}"), e))?;
                    Ok(())
                }
            }
        )*
    };
}

kernel_args! {
    /// Phase 1 of a queue relaxation step.
    QueueRelax => QueueRelaxArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, qi: IdxIn, qv: ValsIn, qh: HdrIn, d: ValsOut, mask: Mask,
        seen: WordsIn, only_new: I32, member: U32Out, stamp: U32, parents: WordsOut,
        use_parents: I32, ti: IdxOut, th: HdrOut, use_defer: I32, bound: U64, fi: IdxOut,
        fv: ValsOut, fh: HdrOut, fmember: U32Out, fstamp: U32,
    }
    /// Phase 2: the witnesses of the improved vertices.
    QueueWitness => QueueWitnessArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, qi: IdxIn, qv: ValsIn, qh: HdrIn, d: ValsIn, mask: Mask,
        member: U32In, stamp: U32, parents: WordsOut, use_defer: I32, bound: U64,
    }
    /// Phase 3: an output queue's values from the final distances.
    QueueFill => QueueFillArgs {
        ti: IdxIn, th: HdrIn, d: ValsIn, tv: ValsOut, steps: WordsOut, use_steps: I32,
    }
    /// Several steps of a small frontier in one block, or (cooperatively launched) of a
    /// mid-sized one over the whole GPU; `arc_limit` is the one block's, `sync` the grid
    /// barrier's.
    QueueRelaxLoop | QueueRelaxGrid => QueueRelaxLoopArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, d: ValsOut, mask: Mask, steps: WordsOut, use_steps: I32,
        only_new: I32, parents: WordsOut, use_parents: I32, ai: IdxOut, avals: ValsOut, ah: HdrOut,
        amember: U32Out, astamp: U32, bi: IdxOut, bvals: ValsOut, bh: HdrOut, bmember: U32Out,
        bstamp: U32, afinal: U32, max_steps: U32, limit: U64, arc_limit: U32, use_defer: I32,
        bound: U64, fi: IdxOut, fv: ValsOut, fh: HdrOut, fmember: U32Out, fstamp: U32,
        sync: HdrOut,
    }
    /// Relaxation to a fixpoint from a seed queue through a worklist of (vertex, value)
    /// entries (`wl`, `cap` slots) and counters (`ctr`), both zero at launch; with
    /// `use_defer`, entries not below `bound` go to the far queue.
    QueueRelaxAsync => QueueRelaxAsyncArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, d: ValsOut, qi: IdxIn, qv: ValsIn, qh: HdrIn,
        wl: HdrOut, cap: U64, ctr: HdrOut, spill: U64, use_defer: I32, bound: U64, fi: IdxOut,
        fv: ValsOut, fh: HdrOut, fmember: U32Out, fstamp: U32,
    }
    /// The parameters of [`Kernel::QueueLevels`](crate::codegen::Kernel::QueueLevels).
    QueueLevels => QueueLevelsArgs {
        rp: IdxIn, ci: IdxIn, r4: IdxIn, use4: U32, n: U64, qi: IdxOut, qv: WordsOut,
        qh: HdrOut, lv: WordsOut, lg: U64Out, qcap: U32, wide: U32, again: U32, bits: U32In,
        out: HdrOut,
    }
    /// The parameters of [`Kernel::QueueLevelsLog`](crate::codegen::Kernel::QueueLevelsLog).
    QueueLevelsLog => QueueLevelsLogArgs { lg: U64In, out: HdrIn, lv: WordsOut }
    /// The parameters of [`Kernel::QueueLevelsRows`](crate::codegen::Kernel::QueueLevelsRows).
    QueueLevelsRows => QueueLevelsRowsArgs { rp: IdxIn, ci: IdxIn, n: U64, r4: IdxOut }
    /// The parameters of [`Kernel::QueueLevelsGrid`](crate::codegen::Kernel::QueueLevelsGrid).
    QueueLevelsGrid => QueueLevelsGridArgs {
        rp: IdxIn, ci: IdxIn, n: U64, qi: IdxOut, qh: HdrOut, lv: WordsOut, fa: U64Out,
        fb: U64Out, epoch: U32, fresh: U32, maxdeg: U32, kmax: U32, half: U32, narrow: U32,
        bits: U32Out, out: HdrOut, sync: HdrOut,
    }
    /// The near/far split of delta-stepping.
    QueueSplit => QueueSplitArgs {
        qi: IdxIn, qh: HdrIn, d: ValsIn, lo: U64, hi: U64, ii: IdxOut, iv: ValsOut, ih: HdrOut,
        imember: U32Out, istamp: U32, oi: IdxOut, ov: ValsOut, oh: HdrOut, omember: U32Out,
        ostamp: U32, use_outside: I32,
    }
    /// `add` over a queue's values.
    QueueReduce => QueueReduceArgs { qv: ValsIn, qh: HdrIn, out: ValsOut }
    /// The arcs leaving a queue's vertices, added to `out[0]`.
    QueueArcs => QueueArcsArgs { rp: IdxIn, qi: IdxIn, qh: HdrIn, out: HdrOut }
    /// Dense relaxation that enqueues what improved.
    QueueImproveDense => QueueImproveDenseArgs {
        d: ValsOut, t: ValsIn, n: U64, ti: IdxOut, tv: ValsOut, th: HdrOut, steps: U64,
    }
    /// `y(i) = v` (or a constant) for the entries of a queue.
    QueueScatter => QueueScatterArgs {
        qi: IdxIn, qv: ValsIn, qh: HdrIn, use_vals: I32, c: U64, y: ValsOut,
    }
    /// `qi(e) += c` for the entries of a queue.
    QueueShift => QueueShiftArgs { qi: IdxOut, qh: HdrIn, c: U64 }
    /// Bit `qi(e) + c` of `bits` set for the entries of a queue; `bits(at)` = its steps.
    QueueMark => QueueMarkArgs { qi: IdxIn, qh: HdrIn, c: U64, bits: WordsOut, at: U64 }
    /// A queue of the set bits of `bits` (`words` words), each with the value of bits `c`, its
    /// steps the largest of the `k` words after them.
    QueueFromMarks => QueueFromMarksArgs {
        bits: WordsIn, words: U64, k: U32, c: U64, ti: IdxOut, tv: ValsOut, th: HdrOut,
    }
    /// Values of one semiring recoded for another (a view or a pattern).
    Recode => RecodeArgs {
        x: BytesIn, y: BytesOut, n: U64, xsize: I32, xzero: U64, ysize: I32, yzero: U64, yone: U64,
        keep: I32,
    }
    /// `y = x^T` for a `rows x cols` array `x`.
    Transpose => TransposeArgs { x: ValsIn, y: ValsOut, rows: U64, cols: U64 }
    /// Whether every value lies in the domain of the semiring's fast multiply-add.
    FastCheck => FastCheckArgs { x: ValsIn, n: U64, bad: U32Out }
    /// Register-tile dense GEMM, its fast form chosen by `bad[0]` (from `FastCheck`), returning
    /// at once when `bad[1] == 0`; and the GEMM on packed 16-bit halves, which runs only then.
    /// Both store through the output mask (`C<mask>`).
    GemmReg | GemmPacked => GemmRegArgs {
        a: ValsIn, b: ValsIn, c: ValsOut, rows: U32, n: U32, kk: U32, accum: I32, bad: U32In,
        mask: Mask,
    }
    /// The parameters of [`Kernel::Ewise`](crate::codegen::Kernel::Ewise).
    Ewise => EwiseArgs { y: ValsOwn, x: ValsIn, n: U64, mask: Mask, op: I32 }
    /// The parameters of [`Kernel::Apply`](crate::codegen::Kernel::Apply).
    Apply => ApplyArgs { y: ValsOwn, n: U64, mask: Mask, op: I32, cbits: U64 }
    /// The parameters of [`Kernel::Scatter`](crate::codegen::Kernel::Scatter).
    Scatter => ScatterArgs {
        y: ValsOwn, idx: IdxIn, vals: ValsIn, nnz: U32, use_vals: I32, cbits: U64, op: I32,
        mark:         BytesOwn, use_mark: I32,
    }
    /// The parameters of [`Kernel::Reduce`](crate::codegen::Kernel::Reduce).
    Reduce => ReduceArgs { x: ValsIn, n: U64, mask: Mask, out: ValsOut }
    /// The parameters of [`Kernel::Count`](crate::codegen::Kernel::Count).
    Count => CountArgs { x: ValsIn, n: U64, out: U64Out }
    /// The parameters of [`Kernel::CompactCount`](crate::codegen::Kernel::CompactCount).
    CompactCount => CompactCountArgs {
        x: ValsIn, flags: BytesIn, use_flags: I32, n: U64, items: U32, counts: U32Out,
    }
    /// The parameters of [`Kernel::CompactWrite`](crate::codegen::Kernel::CompactWrite).
    CompactWrite => CompactWriteArgs {
        x: ValsIn, flags: BytesIn, use_flags: I32, n: U64, items: U32, offs: U32In, map: IdxIn,
        use_map: I32, out_idx: IdxOwn, out_vals: ValsOwn,
    }
    /// The parameters of [`Kernel::Improve`](crate::codegen::Kernel::Improve).
    Improve => ImproveArgs {
        d: ValsOwn, idx: IdxIn, vals: ValsIn, nnz: U32, out: ValsOwn, changed: BytesOwn,
    }
    /// The parameters of [`Kernel::ImproveDense`](crate::codegen::Kernel::ImproveDense).
    ImproveDense => ImproveDenseArgs { d: ValsOwn, t: ValsIn, n: U64, count: U64Out }
    /// The parameters of [`Kernel::SelectRange`](crate::codegen::Kernel::SelectRange).
    SelectRange => SelectRangeArgs {
        x: ValsIn, nnz: U32, lo_bits: U64, hi_bits: U64, out: ValsOwn, flags: BytesOwn,
    }
    /// The parameters of [`Kernel::Witness`](crate::codegen::Kernel::Witness).
    Witness => WitnessArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, xi: IdxIn, xv: ValsIn, nx: U32, lanes: U32,
        d: ValsIn, target: BytesIn, p: WordsOut,
    }
    /// The parameters of [`Kernel::Scan`](crate::codegen::Kernel::Scan).
    Scan => ScanArgs { counts: U32Out, nb: U32 }
    /// The parameters of [`Kernel::ScanReduce`](crate::codegen::Kernel::ScanReduce).
    ScanReduce => ScanReduceArgs { x64: U64In, x32: U32In, wide: I32, n: U64, sums: U64Out }
    /// The parameters of [`Kernel::ScanSums`](crate::codegen::Kernel::ScanSums).
    ScanSums => ScanSumsArgs { sums: U64Out, nb: U64 }
    /// The parameters of [`Kernel::ScanDown`](crate::codegen::Kernel::ScanDown).
    ScanDown => ScanDownArgs {
        x64: U64In, x32: U32In, xwide: I32, n: U64, sums: U64In, y64: U64Out, y32: U32Out,
        ywide: I32,
    }
    /// The parameters of [`Kernel::RowLens`](crate::codegen::Kernel::RowLens).
    RowLens => RowLensArgs {
        arp: U32In, brp: U32In, use_b: I32, src: U32In, use_src: I32, nrows: U64, lens: U64Out,
    }
    /// The parameters of [`Kernel::WordsDiffer`](crate::codegen::Kernel::WordsDiffer).
    WordsDiffer => WordsDifferArgs { a: U32In, b: U32In, n: U64, differ: U32Out }
    /// The parameters of [`Kernel::RowClasses`](crate::codegen::Kernel::RowClasses).
    RowClasses => RowClassesArgs {
        sel64: U64In, sel32: U32In, wide: I32, nrows: U64, lo: U64, hi: U64, rows: U32Out,
        stats: U64Out,
    }
    /// The parameters of [`Kernel::SpmvCsrScalar`](crate::codegen::Kernel::SpmvCsrScalar).
    SpmvCsrScalar => SpmvCsrScalarArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, x: ValsIn, y: ValsOwn, nrows: U32, k: U32, mask: Mask,
        accum: I32,
    }
    /// The parameters of [`Kernel::SpmvCsrVector`](crate::codegen::Kernel::SpmvCsrVector).
    SpmvCsrVector => SpmvCsrVectorArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, x: ValsIn, y: ValsOwn, nrows: U32, k: U32, mask: Mask,
        accum: I32, vw: U32,
    }
    /// The parameters of [`Kernel::SpmvCsrSplit`](crate::codegen::Kernel::SpmvCsrSplit).
    SpmvCsrSplit => SpmvCsrSplitArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, x: ValsIn, t: ValsOut, nrows: U32, k: U32, mask: Mask,
        nnz: U32, chunk: U32,
    }
    /// The parameters of [`Kernel::SpmvCsrAdaptive`](crate::codegen::Kernel::SpmvCsrAdaptive).
    SpmvCsrAdaptive => SpmvCsrAdaptiveArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, x: ValsIn, y: ValsOwn, k: U32, plan: PlanIn, slot: U32In,
        part: ValsOut, mask: Mask, accum: I32,
    }
    /// The parameters of [`Kernel::SpmvCsrAdaptiveFinish`](crate::codegen::Kernel::SpmvCsrAdaptiveFinish).
    SpmvCsrAdaptiveFinish => SpmvCsrAdaptiveFinishArgs {
        rows: IdxIn, part: ValsIn, y: ValsOwn, nslots: U32, k: U32, mask: Mask, accum: I32,
    }
    /// The parameters of [`Kernel::SpmvEll`](crate::codegen::Kernel::SpmvEll).
    SpmvEll => SpmvEllArgs {
        ci: IdxIn, av: ValsIn, x: ValsIn, y: ValsOwn, nrows: U32, k: U32, width: U32, mask: Mask,
        accum: I32,
    }
    /// The parameters of [`Kernel::SpmvDia`](crate::codegen::Kernel::SpmvDia).
    SpmvDia => SpmvDiaArgs {
        offs: I64In, data: ValsIn, x: ValsIn, y: ValsOwn, nrows: U32, ncols: U32, k: U32,
        ndiag: U32, mask: Mask, accum: I32,
    }
    /// The parameters of [`Kernel::SpmvCoo`](crate::codegen::Kernel::SpmvCoo).
    SpmvCoo => SpmvCooArgs {
        rows: IdxIn, cols: IdxIn, av: ValsIn, x: ValsIn, t: ValsOut, nnz: U32, k: U32, mask: Mask,
    }
    /// The parameters of [`Kernel::SpmvDense`](crate::codegen::Kernel::SpmvDense).
    SpmvDense => SpmvDenseArgs {
        a: ValsIn, x: ValsIn, y: ValsOwn, nrows: U32, ncols: U32, k: U32, mask: Mask, accum: I32,
    }
    /// The parameters of [`Kernel::VxmCsr`](crate::codegen::Kernel::VxmCsr).
    VxmCsr => VxmCsrArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, xi: IdxIn, xv: ValsIn, nx: U32, t: ValsOut, mask: Mask,
    }
    /// The parameters of [`Kernel::Gemm`](crate::codegen::Kernel::Gemm).
    Gemm => GemmArgs {
        a: ValsIn, b: ValsIn, c: ValsOwn, rows: U32, n: U32, kk: U32, accum: I32, mask: Mask,
    }
    /// The parameters of [`Kernel::SpgemmBound`](crate::codegen::Kernel::SpgemmBound).
    SpgemmBound => SpgemmBoundArgs { arp: IdxIn, aci: IdxIn, brp: IdxIn, nrows: U64, ub: U64Out }
    /// The parameters of [`Kernel::SpgemmExpand`](crate::codegen::Kernel::SpgemmExpand).
    SpgemmExpand => SpgemmExpandArgs {
        arp: IdxIn, aci: IdxIn, av: MatIn, brp: IdxIn, bci: IdxIn, bv: MatIn, mrp: IdxIn,
        mci: IdxIn, mv: MatIn, mmode: I32, nrows: U64, off: U64In, ub: U64In, long_min: U64,
        tk: U64Out, tv: ValsOut, used: U32Out,
    }
    /// The parameters of [`Kernel::SpgemmDot`](crate::codegen::Kernel::SpgemmDot).
    SpgemmDot => SpgemmDotArgs {
        arp: IdxIn, aci: IdxIn, av: MatIn, btrp: IdxIn, btci: IdxIn, btv: MatIn, mrp: IdxIn,
        mci: IdxIn, mv: MatIn, nrows: U64, mnnz: U64, tv: ValsOut,
    }
    /// The parameters of [`Kernel::Sddmm`](crate::codegen::Kernel::Sddmm).
    Sddmm => SddmmArgs {
        mrp: IdxIn, mci: IdxIn, mv: MatIn, x: ValsIn, y: ValsIn, nrows: U64, mnnz: U64, k: U32,
        tv: ValsOut,
    }
    /// The parameters of [`Kernel::SortRows`](crate::codegen::Kernel::SortRows).
    SortRows => SortRowsArgs {
        off: U64In, len: U32In, tk: U64Out, tv: ValsOut, cnt: U32Out, nrows: U64, small: U32,
    }
    /// The parameters of [`Kernel::SortRowsBlock`](crate::codegen::Kernel::SortRowsBlock) and
    /// [`Kernel::SortRowsLong`](crate::codegen::Kernel::SortRowsLong).
    SortRowsBlock | SortRowsLong => SortRowsBlockArgs {
        off: U64In, len: U32In, rows: IdxIn, count: U64In, tk: U64Out, tv: ValsOut, cnt: U32Out,
    }
    /// The parameters of [`Kernel::SpgemmLong`](crate::codegen::Kernel::SpgemmLong).
    SpgemmLong => SpgemmLongArgs {
        arp: IdxIn, aci: IdxIn, av: MatIn, brp: IdxIn, bci: IdxIn, bv: MatIn, mrp: IdxIn,
        mci: IdxIn, mv: MatIn, mmode: I32, rows: IdxIn, nrows: U64, ncols: U64, off: U64In,
        accs: ValsOut, flags: BytesOut, tk: U64Out, tv: ValsOut, cnt: U32Out,
    }
    /// The parameters of [`Kernel::GatherRows`](crate::codegen::Kernel::GatherRows).
    GatherRows => GatherRowsArgs {
        off: U64In, cnt: U32In, tk: U64In, tv: ValsIn, rp: IdxIn, ci: IdxOut, vals: ValsOut,
        nrows: U64,
    }
    /// The parameters of [`Kernel::ColCount`](crate::codegen::Kernel::ColCount).
    ColCount => ColCountArgs { ci: IdxIn, nnz: U64, cnt: U32Out }
    /// The parameters of [`Kernel::ColScatter`](crate::codegen::Kernel::ColScatter).
    ColScatter => ColScatterArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, nrows: U64, off: U64In, cursor: U32Out, tk: U64Out,
        tv: ValsOut,
    }
    /// The parameters of [`Kernel::CooScatter`](crate::codegen::Kernel::CooScatter).
    CooScatter => CooScatterArgs {
        src: IdxIn, dst: IdxIn, av: MatIn, m: U64, off: U64In, cursor: U32Out, tk: U64Out,
        tv: ValsOut,
    }
    /// The parameters of [`Kernel::ApplyOp`](crate::codegen::Kernel::ApplyOp).
    ApplyOp => ApplyOpArgs { y: ValsOwn, n: U64, mask: Mask, sbits: U64, side: I32 }
    /// The parameters of [`Kernel::EwiseOp`](crate::codegen::Kernel::EwiseOp).
    EwiseOp => EwiseOpArgs { y: ValsOwn, x: ValsIn, n: U64, mask: Mask, how: I32 }
    /// The parameters of [`Kernel::ScatterOp`](crate::codegen::Kernel::ScatterOp).
    ScatterOp => ScatterOpArgs { w: ValsOut, wlen: U64, idx: WordsIn, u: ValsIn, n: U64 }
    /// The parameters of [`Kernel::Gather`](crate::codegen::Kernel::Gather).
    Gather => GatherArgs { w: ValsOwn, idx: WordsIn, n: U64, u: ValsIn, ulen: U64 }
    /// The parameters of the row kernels that read one row of a matrix per output row.
    RowsCopy | RowsMap | RowsSelect => RowsMapArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, src: IdxIn, use_src: I32, nrows: U64, off: U64In,
        sbits: U64, side: I32, tk: U64Out, tv: ValsOut, cnt: U32Out,
    }
    /// The parameters of [`Kernel::RowsMerge`](crate::codegen::Kernel::RowsMerge).
    RowsMerge => RowsMergeArgs {
        arp: IdxIn, aci: IdxIn, av: MatIn, brp: IdxIn, bci: IdxIn, bv: MatIn, how: I32,
        nrows: U64, off: U64In, tk: U64Out, tv: ValsOut, cnt: U32Out,
    }
    /// The parameters of [`Kernel::RowReduce`](crate::codegen::Kernel::RowReduce).
    RowReduce => RowReduceArgs { rp: IdxIn, av: MatIn, nrows: U64, y: ValsOut }
    /// The parameters of [`Kernel::RowArg`](crate::codegen::Kernel::RowArg).
    RowArg => RowArgArgs { rp: IdxIn, ci: IdxIn, av: MatIn, nrows: U64, y: WordsOut }
    /// The parameters of [`Kernel::IndexLens`](crate::codegen::Kernel::IndexLens).
    IndexLens => IndexLensArgs { idx: WordsIn, n: U64, ncols: U64, lens: U32Out }
    /// The parameters of [`Kernel::IndexFill`](crate::codegen::Kernel::IndexFill).
    IndexFill => IndexFillArgs {
        idx: WordsIn, n: U64, ncols: U64, rp: IdxIn, ci: IdxOut, vals: ValsOut,
    }
    /// The parameters of [`Kernel::RowsToDense`](crate::codegen::Kernel::RowsToDense).
    RowsToDense => RowsToDenseArgs {
        rp: IdxIn, ci: IdxIn, av: MatIn, nrows: U64, ncols: U64, y: ValsOut,
    }
}
