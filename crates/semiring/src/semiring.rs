//! The [`Semiring`] trait and the CUDA source it carries.

use std::fmt::{self, Write as _};

use crate::scalar::{Scalar, ScalarType};

/// A semiring `(T, add, mul, zero, one)`: the one thing an algorithm names.
///
/// Implementors are zero-sized marker types (`MinPlus<f32>`, `OrAnd`, ...). Each carries the
/// CPU scalar operations **and** the CUDA source of the same operations
/// ([`Semiring::cuda`]), so one definition feeds the CPU backend and the generated kernels.
///
/// # Laws
/// `add` is associative and commutative with identity [`Semiring::zero`]; `mul` is
/// associative, distributes over `add`, and [`Semiring::zero`] annihilates it
/// (`mul(zero, x) = mul(x, zero) = zero`). The annihilation law is what lets padded formats
/// (ELL, DIA, dense) store the semiring zero where there is no entry: padding then contributes
/// nothing to any product. Integer semirings that saturate (min-plus over `i32`, ...) obey the
/// laws as long as no finite result overflows. The index semirings ([`Semiring::USES_INDEX`])
/// have no right identity: their product is the index of the vector entry, not a value.
///
/// # Products
/// A matrix-vector product computes `y[i] = add_k mul_at(A[i][k], x[k], k)` over the stored
/// entries of row `i`, starting from `zero`. [`Semiring::mul_at`] receives the inner index `k`,
/// which the parent-computing semirings return.
pub trait Semiring: Copy + Default + PartialEq + Eq + fmt::Debug + Send + Sync + 'static {
    /// The value type.
    type T: Scalar;
    /// The semiring's name without the type, as used in kernel keys: `[a-z0-9_]+`.
    const NAME: &'static str;
    /// Whether [`Semiring::mul_at`] uses the inner index (parent-computing semirings).
    const USES_INDEX: bool = false;
    /// Whether [`Semiring::one`] is a left identity of `mul` (`one * a == a`): true but for
    /// products that keep their left operand ([`MinFirst`](crate::MinFirst)).
    const ONE_LEFT: bool = true;
    /// Whether [`Semiring::one`] is a right identity of `mul` (`a * one == a`): true but for
    /// the index semirings and products that keep their right operand
    /// ([`MinSecond`](crate::MinSecond)).
    const ONE_RIGHT: bool = true;

    /// Identity of `add`, annihilator of `mul`; the value of a missing entry.
    fn zero() -> Self::T;
    /// Identity of `mul` (left identity for the index semirings).
    fn one() -> Self::T;
    /// The semiring addition.
    fn add(a: Self::T, b: Self::T) -> Self::T;
    /// The semiring multiplication.
    fn mul(a: Self::T, b: Self::T) -> Self::T;
    /// The multiplication of `A[i][k]` by `x[k]`, given the inner index `k`.
    #[inline]
    fn mul_at(a: Self::T, b: Self::T, k: u64) -> Self::T {
        let _ = k;
        Self::mul(a, b)
    }
    /// Whether `a` is terminal: `add(a, x) == a` for every `x`, so a reduction may stop.
    #[inline]
    fn is_terminal(a: Self::T) -> bool {
        let _ = a;
        false
    }
    /// Whether a [`Semiring::is_terminal`] value can exist at all.
    const HAS_TERMINAL: bool = false;
    /// Whether a sum whose terms `mul_at(a, x, k)` come in increasing order of the inner index
    /// `k` (a row of a CSR matrix, whose columns increase) equals its first non-zero term, so
    /// that a reduction along a row may stop there. True of `(min, secondi)`, whose product
    /// is `k` itself: the first term found is the smallest.
    const FIRST_WINS: bool = false;
    /// What [`Semiring::add`] computes ([`Op`]), so that a product's exact value can be
    /// found in wider numbers and a result the type cannot hold refused
    /// ([`Op::Opaque`], the default: unknown, results are not checked).
    const ADD: Op = Op::Opaque;
    /// What [`Semiring::mul`] computes ([`Op`]); see [`Semiring::ADD`].
    const MUL: Op = Op::Opaque;

    /// The CUDA source of this semiring's operations.
    fn cuda() -> CudaSemiring;

    /// `true` if `new` strictly improves `old`: the value a relaxation `old <- add(old, new)`
    /// should take, and report as a change. The default is "the sum differs from `old`"
    /// (bitwise), which for a selecting addition (min, max, or) means `new` is strictly better.
    ///
    /// [`MinPlusPred`](crate::MinPlusPred) overrides it to compare distances only: a tie in
    /// distance with a smaller predecessor is not an improvement. Label-correcting algorithms
    /// rely on this so that a predecessor is only ever set on a strict decrease of distance,
    /// which keeps predecessor graphs free of cycles unless a negative cycle exists.
    #[inline]
    fn improves(old: Self::T, new: Self::T) -> bool {
        Self::add(old, new).to_bits64() != old.to_bits64()
    }

    /// Whether a product reads only where its matrix has entries, not their values: a
    /// boolean semiring (any weight means "an arc") or a product that is the inner index
    /// (the secondi semirings), so that a graph's weights need not be converted.
    fn reads_structure_only() -> bool {
        <Self::T as Scalar>::TYPE == ScalarType::Bool
            || (Self::USES_INDEX && Self::MUL == Op::Select)
    }

    /// Whether `add` is idempotent (`add(a, a) == a`: min, max, or, any), so that a term
    /// counted twice changes nothing.
    fn idempotent_add() -> bool {
        matches!(Self::ADD, Op::Min | Op::Max | Op::Select | Op::Any)
    }

    /// Whether `add` keeps the least or greatest of a total order (min, max), so that a
    /// result can be refined by any later smaller (larger) term: the label-correcting
    /// algorithms' condition.
    fn totally_ordered() -> bool {
        matches!(Self::ADD, Op::Min | Op::Max)
    }

    /// `true` if `v` is the semiring zero: bitwise, except that both zeros of a
    /// floating-point type are the zero where it is one of them (`-0.0` is plus-times'
    /// zero, as `0 * -4` gives it; NaN never is).
    #[inline]
    fn is_zero(v: Self::T) -> bool {
        same_zero::<Self::T>(v.to_bits64(), Self::zero().to_bits64())
    }

    /// The full name of this semiring over its type, e.g. `min_plus_f32`.
    fn full_name() -> String {
        format!("{}_{}", Self::NAME, <Self::T as Scalar>::TYPE.name())
    }
}

/// Whether the bits `v` and `z` of two values of type `T` are the same value for
/// [`Semiring::is_zero`]: equal bits, or both a floating-point zero (`+0.0`, `-0.0`).
#[inline]
fn same_zero<T: Scalar>(v: u64, z: u64) -> bool {
    let t = T::TYPE;
    v == z || (t.is_float() && (v | z) & !(1u64 << (8 * t.size_bytes() - 1)) == 0)
}

/// What a semiring's `add` or `mul` computes ([`Semiring::ADD`], [`Semiring::MUL`]): enough
/// to evaluate a product in wider numbers and tell whether the type holds its exact value.
/// Integer `+` and `*` wrap or saturate at the type's limits and floats overflow to
/// infinity; an operation that only [`Op::Select`]s never leaves the type. The properties
/// algorithms and tools ask of a semiring derive from these, never from its name:
///
/// ```
/// use semigraph_semiring::{AnySecondI, MinPlus, Op, OrAnd, PlusTimes, Semiring};
/// assert_eq!((PlusTimes::<f32>::ADD, PlusTimes::<f32>::MUL), (Op::Plus, Op::Times));
/// assert!(MinPlus::<i32>::totally_ordered() && MinPlus::<i32>::idempotent_add());
/// assert!(!PlusTimes::<f32>::idempotent_add() && !PlusTimes::<f32>::totally_ordered());
/// assert!(OrAnd::reads_structure_only() && AnySecondI::<u32>::reads_structure_only());
/// assert!(!MinPlus::<f64>::reads_structure_only());
/// assert_eq!(AnySecondI::<u32>::ADD, Op::Any);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// `a + b` (in the path semirings, whose `mul` it is, the zero annihilates it).
    Plus,
    /// `a * b`.
    Times,
    /// The smaller operand.
    Min,
    /// The larger operand.
    Max,
    /// One of the operands, a constant or the inner index (or, and, first, second,
    /// secondi): never a value outside the type.
    Select,
    /// Either operand that is not the zero, whichever a backend meets first (GraphBLAS's
    /// `any`): a selection whose result depends on the order of the terms, so results are
    /// checked for validity rather than equality.
    Any,
    /// Unknown (user semirings that do not say): results are not checked.
    Opaque,
}

/// How a kernel combines a value into memory with the semiring's `add`, atomically.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AtomicAdd {
    /// A native CUDA atomic: a statement over `sr_t* p` and `sr_t v`, e.g. `atomicMin(p, v);`.
    Native(String),
    /// A compare-and-swap loop on the value's own 4- or 8-byte word.
    Cas,
    /// A compare-and-swap loop on the aligned 32-bit word holding a 1- or 2-byte value.
    Word32,
}

impl AtomicAdd {
    /// The fallback for a type: [`AtomicAdd::Cas`] for 4- and 8-byte values, else
    /// [`AtomicAdd::Word32`].
    pub fn cas_for(t: ScalarType) -> AtomicAdd {
        if t.size_bytes() >= 4 {
            AtomicAdd::Cas
        } else {
            AtomicAdd::Word32
        }
    }
}

/// The CUDA C++ source of a semiring over one value type.
///
/// Expressions are written over the device variables `a`, `b` (values of type `sr_t`) and
/// `k` (the inner index, `unsigned long long`), and may call functions defined in
/// [`CudaSemiring::helpers`]. They use nothing from `std::`, which NVRTC lacks.
/// [`CudaSemiring::prelude`] renders everything as one header that kernel templates include.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CudaSemiring {
    /// Semiring name (`min_plus`).
    pub name: &'static str,
    /// Value type.
    pub value_type: ScalarType,
    /// Literal of the zero.
    pub zero: String,
    /// The zero's bits ([`Scalar::to_bits64`]).
    pub zero_bits: u64,
    /// Literal of the one.
    pub one: String,
    /// `add(a, b)`.
    pub add: String,
    /// `mul(a, b, k)`.
    pub mul: String,
    /// Predicate over `a`: whether it is terminal (`None`: never).
    pub terminal: Option<String>,
    /// How to `add` into memory atomically.
    pub atomic: AtomicAdd,
    /// Predicate over `a` (old) and `b` (new): whether `b` strictly improves `a`
    /// ([`Semiring::improves`]); `None`: the default, "`add(a, b)` differs from `a` bitwise".
    pub improves: Option<String>,
    /// Device functions used by the expressions.
    pub helpers: String,
    /// A faster form of `add(c, mul(a, b))` valid while every operand satisfies a predicate:
    /// `(domain over a, expression over c, a, b)` ([`CudaSemiring::fast_fma`]); `None`: none.
    pub fast_fma: Option<(String, String)>,
    /// A packed form of the inner step on two 16-bit halves at once ([`Packed16`]); `None`:
    /// none.
    pub packed16: Option<Packed16>,
    /// [`Semiring::FIRST_WINS`] of the semiring.
    pub first_wins: bool,
}

/// A form of a semiring's inner step `add(c, mul(a, b))` on two outputs at once, each value
/// narrowed to 16 bits in one half of a 32-bit word: `fma2` is one SIMD instruction on two
/// halves (min-plus: the DPX `__viaddmin_s16x2` of `sm_90`, twice the outputs per
/// instruction of the 32-bit form). Dense GEMM takes it only when every operand satisfies
/// `domain` (checked on the device), where it is exact: `decode(fma2(...))` of encoded
/// operands equals the semiring's own result bit for bit.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Packed16 {
    /// Predicate over a value `a`: it may be encoded.
    pub domain: String,
    /// The 16 bits of a value `a` in the domain (an `unsigned int` below 65,536).
    pub encode: String,
    /// The value of 16 bits `h` (an `unsigned int` below 65,536): any result of `fma2` on
    /// encoded operands, `encode(zero)` included.
    pub decode: String,
    /// `add(c, mul(a, b))` on both halves of the words `c`, `a`, `b` (`unsigned int`).
    pub fma2: String,
}

impl CudaSemiring {
    /// Starts the description of semiring `S` with its literals filled in from the CPU
    /// definition; the expressions are the caller's.
    pub fn new<S: Semiring>(add: impl Into<String>, mul: impl Into<String>) -> CudaSemiring {
        let t = <S::T as Scalar>::TYPE;
        assert!(
            is_key_name(S::NAME),
            "semiring name {:?} must be non-empty and use only [a-z0-9_] (it is part of kernel keys)",
            S::NAME
        );
        CudaSemiring {
            name: S::NAME,
            value_type: t,
            zero: S::zero().cuda_literal(),
            zero_bits: S::zero().to_bits64(),
            one: S::one().cuda_literal(),
            add: add.into(),
            mul: mul.into(),
            terminal: None,
            atomic: AtomicAdd::cas_for(t),
            improves: None,
            helpers: String::new(),
            fast_fma: None,
            packed16: None,
            first_wins: S::FIRST_WINS,
        }
    }

    /// Where the zero is a floating-point zero (`+0.0` or `-0.0`), the mask of every bit of
    /// a value but its sign: a value is the zero where those bits are all clear.
    fn zero_is_signed_zero(&self) -> Option<u64> {
        let t = self.value_type;
        let bits = 8 * t.size_bytes() as u32;
        let magnitude = (u64::MAX >> (64 - bits)) & !(1u64 << (bits - 1));
        (t.is_float() && self.zero_bits & magnitude == 0).then_some(magnitude)
    }

    /// Sets a faster form of `add(c, mul(a, b))` (the inner step of a product) that equals it,
    /// bit for bit, whenever `a`, `b` and `c` all satisfy `domain` (a predicate over `a`; the
    /// result must satisfy it too). Dense GEMM checks its operands on the device and takes
    /// this form only when every one of them satisfies `domain`. Example: min-plus over
    /// `int` with non-negative operands, where the DPX instruction of `sm_90` adds and takes
    /// the minimum at once.
    pub fn fast_fma(mut self, domain: impl Into<String>, fma: impl Into<String>) -> Self {
        self.fast_fma = Some((domain.into(), fma.into()));
        self
    }

    /// Sets the packed 16-bit form of the inner step ([`Packed16`]).
    pub fn packed16(mut self, p: Packed16) -> Self {
        self.packed16 = Some(p);
        self
    }

    /// Sets the terminal predicate.
    pub fn terminal(mut self, pred: impl Into<String>) -> Self {
        self.terminal = Some(pred.into());
        self
    }

    /// Sets the improvement predicate over `a` (old) and `b` (new), for semirings that
    /// override [`Semiring::improves`].
    pub fn improves(mut self, pred: impl Into<String>) -> Self {
        self.improves = Some(pred.into());
        self
    }

    /// Sets a native atomic statement.
    pub fn native_atomic(mut self, stmt: Option<&str>) -> Self {
        if let Some(s) = stmt {
            self.atomic = AtomicAdd::Native(s.to_string());
        }
        self
    }

    /// Appends helper device functions.
    pub fn helpers(mut self, src: &str) -> Self {
        self.helpers.push_str(src);
        self
    }

    /// `name_type`, e.g. `min_plus_f32`.
    pub fn full_name(&self) -> String {
        format!("{}_{}", self.name, self.value_type.name())
    }

    /// The header that defines the semiring for kernel templates:
    /// `sr_t`, `SR_ZERO`, `SR_ONE`, `SR_HAS_TERMINAL`, `SR_FIRST_WINS`, `sr_add`, `sr_mul`, `sr_is_terminal`,
    /// `sr_atomic_add`, `SR_HAS_FAST_FMA`, `sr_fast_ok`, `sr_fast_fma` ([`CudaSemiring::fast_fma`]),
    /// where the semiring has a packed form `SR_HAS_PACKED16`, `sr_packed_ok`, `sr_packed_enc`,
    /// `sr_packed_dec`, `sr_packed_fma2` ([`Packed16`]), and the bit-level helpers `sr_word_t` (an unsigned integer of the
    /// value's size), `sr_to_word`, `sr_from_word`, `sr_is_zero` (bitwise, as
    /// [`Semiring::is_zero`]) and `sr_improves(old, new)` ([`Semiring::improves`]).
    pub fn prelude(&self) -> String {
        let t = self.value_type;
        let ty = t.cuda_type();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "// semiring {} (generated by semigraph-semiring)",
            self.full_name()
        );
        if let Some(h) = t.cuda_type_prelude() {
            s.push_str(h);
        }
        let _ = writeln!(s, "typedef {ty} sr_t;");
        let word = match t.size_bytes() {
            1 => "unsigned char",
            2 => "unsigned short",
            4 => "unsigned int",
            _ => "unsigned long long",
        };
        let _ = writeln!(s, "typedef {word} sr_word_t;");
        let _ = writeln!(
            s,
            "__device__ __forceinline__ sr_word_t sr_to_word(sr_t v) {{ \
             union {{ sr_t v; sr_word_t w; }} u; u.w = 0; u.v = v; return u.w; }}"
        );
        let _ = writeln!(
            s,
            "__device__ __forceinline__ sr_t sr_from_word(sr_word_t w) {{ \
             union {{ sr_t v; sr_word_t w; }} u; u.w = w; return u.v; }}"
        );
        let _ = writeln!(s, "#define SR_ZERO ({})", self.zero);
        let _ = writeln!(s, "#define SR_ONE ({})", self.one);
        let _ = writeln!(
            s,
            "#define SR_HAS_TERMINAL {}",
            self.terminal.is_some() as u8
        );
        let _ = writeln!(s, "#define SR_FIRST_WINS {}", self.first_wins as u8);
        if !self.helpers.is_empty() {
            s.push_str(&self.helpers);
            if !self.helpers.ends_with('\n') {
                s.push('\n');
            }
        }
        let _ = writeln!(
            s,
            "__device__ __forceinline__ sr_t sr_add(sr_t a, sr_t b) {{ return ({}); }}",
            self.add
        );
        let _ = writeln!(
            s,
            "__device__ __forceinline__ sr_t sr_mul(sr_t a, sr_t b, unsigned long long k) {{ \
             (void)k; return ({}); }}",
            self.mul
        );
        let _ = writeln!(
            s,
            "__device__ __forceinline__ bool sr_is_terminal(sr_t a) {{ (void)a; return ({}); }}",
            self.terminal.as_deref().unwrap_or("false")
        );
        let (domain, fma) = match &self.fast_fma {
            Some((d, f)) => (d.as_str(), f.as_str()),
            None => ("false", "sr_add(c, sr_mul(a, b, 0))"),
        };
        let _ = writeln!(
            s,
            "#define SR_HAS_FAST_FMA {}",
            self.fast_fma.is_some() as u8
        );
        let _ = writeln!(
            s,
            "__device__ __forceinline__ bool sr_fast_ok(sr_t a) {{ (void)a; return ({domain}); }}"
        );
        let _ = writeln!(
            s,
            "__device__ __forceinline__ sr_t sr_fast_fma(sr_t c, sr_t a, sr_t b) {{ return ({fma}); }}"
        );
        if let Some(p) = &self.packed16 {
            // Only semirings with a packed form define these (kernels test the macro).
            let _ = writeln!(s, "#define SR_HAS_PACKED16 1");
            let _ = writeln!(
                s,
                "__device__ __forceinline__ bool sr_packed_ok(sr_t a) {{ return ({}); }}",
                p.domain
            );
            let _ = writeln!(
                s,
                "__device__ __forceinline__ unsigned int sr_packed_enc(sr_t a) {{ return ({}); }}",
                p.encode
            );
            let _ = writeln!(
                s,
                "__device__ __forceinline__ sr_t sr_packed_dec(unsigned int h) {{ return ({}); }}",
                p.decode
            );
            let _ = writeln!(
                s,
                "__device__ __forceinline__ unsigned int sr_packed_fma2(unsigned int c, \
                 unsigned int a, unsigned int b) {{ return ({}); }}",
                p.fma2
            );
        }
        // Both zeros of a floating-point type are the zero where it is one of them
        // (Semiring::is_zero).
        let _ = match self.zero_is_signed_zero() {
            Some(mask) => writeln!(
                s,
                "__device__ __forceinline__ bool sr_is_zero(sr_t a) {{ \
                 return (sr_to_word(a) & {mask:#x}ull) == 0; }}"
            ),
            None => writeln!(
                s,
                "__device__ __forceinline__ bool sr_is_zero(sr_t a) {{ \
                 return sr_to_word(a) == sr_to_word(SR_ZERO); }}"
            ),
        };
        let _ = writeln!(
            s,
            "__device__ __forceinline__ bool sr_improves(sr_t a, sr_t b) {{ return ({}); }}",
            self.improves
                .as_deref()
                .unwrap_or("sr_to_word(sr_add(a, b)) != sr_to_word(a)")
        );
        s.push_str(&atomic_source(t, "sr_atomic_add", "sr_add", &self.atomic));
        s
    }
}

/// The device function `fname(sr_t* p, sr_t v)` that sets `*p = combine(*p, v)` atomically,
/// for a type and strategy (`sr_atomic_add` over `sr_add`; operators' `sg_atomic_op2`).
pub(crate) fn atomic_source(
    t: ScalarType,
    fname: &str,
    combine: &str,
    atomic: &AtomicAdd,
) -> String {
    match atomic {
        AtomicAdd::Native(stmt) => {
            format!("__device__ __forceinline__ void {fname}(sr_t* p, sr_t v) {{ {stmt} }}\n")
        }
        AtomicAdd::Cas => {
            let w = if t.size_bytes() == 8 {
                "unsigned long long"
            } else {
                "unsigned int"
            };
            format!(
                "__device__ __forceinline__ void {fname}(sr_t* p, sr_t v) {{
    {w}* wp = ({w}*)p;
    {w} old = *wp, assumed;
    do {{
        assumed = old;
        sr_t cur = *(sr_t*)&assumed;
        sr_t nv = {combine}(cur, v);
        {w} nw = *({w}*)&nv;
        if (nw == assumed) return;
        old = atomicCAS(wp, assumed, nw);
    }} while (old != assumed);
}}
"
            )
        }
        AtomicAdd::Word32 => {
            let (narrow, mask) = if t.size_bytes() == 1 {
                ("unsigned char", "0xffu")
            } else {
                ("unsigned short", "0xffffu")
            };
            format!(
                "__device__ __forceinline__ void {fname}(sr_t* p, sr_t v) {{
    unsigned long long addr = (unsigned long long)p;
    unsigned int* wp = (unsigned int*)(addr & ~3ull);
    unsigned int shift = (unsigned int)(addr & 3ull) * 8u;
    unsigned int old = *wp, assumed;
    do {{
        assumed = old;
        {narrow} cb = ({narrow})((assumed >> shift) & {mask});
        sr_t cur = *(sr_t*)&cb;
        sr_t nv = {combine}(cur, v);
        {narrow} nb = *({narrow}*)&nv;
        unsigned int nw = (assumed & ~({mask} << shift)) | ((unsigned int)nb << shift);
        if (nw == assumed) return;
        old = atomicCAS(wp, assumed, nw);
    }} while (old != assumed);
}}
"
            )
        }
    }
}

/// Whether `name` can stand in a kernel key: non-empty, `[a-z0-9_]`, no double underscore
/// (double underscores separate the fields of a key).
pub fn is_key_name(name: &str) -> bool {
    !name.is_empty()
        && !name.contains("__")
        && name
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}
