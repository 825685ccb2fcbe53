//! The GEMM kernels against the CPU backend: the register-tile kernel's fast and exact
//! forms (each semiring's fast-form domain), the packed 16-bit form, every masked and
//! accumulated variant.

use semigraph_algos::prelude::*;
use semigraph_algos::{Accum, CpuBackend, Mask};
use semigraph_gpu::{GemmKernel, GemmPath, GpuBackend};
use semigraph_semiring::{MinPlus, OrAnd, Scalar, Semiring};
use semigraph_testkit::harness::Failed;

/// The GEMM forms each GEMM test runs: `(accumulation, mask)` with mask 0 none, 1 a mask, 2
/// its complement.
pub const MASKED_GEMMS: [(Accum, u8); 4] = [
    (Accum::Replace, 0),
    (Accum::Add, 0),
    (Accum::Replace, 1),
    (Accum::Add, 2),
];

pub type GpuDense<S> = <GpuBackend as Objects>::Dense<S>;

/// A GEMM's shape and operands on the host: `A` (`m x k`), `B` (`k x n`), `C`'s start.
pub struct Operands<'a, S: Semiring> {
    m: usize,
    k: usize,
    n: usize,
    a: &'a [S::T],
    b: &'a [S::T],
    c0: &'a [S::T],
}

/// `C<mask> (+)= A B` on the GPU (`ga`, `gb` hold `a`, `b`) equals the CPU's, bit for bit, for
/// each form of [`MASKED_GEMMS`]: unmasked, through a mask and through its complement (excluded
/// outputs keep C's value `c0`), replacing and accumulating.
pub fn masked_gemms_match<S: Semiring>(
    gpu: &GpuBackend,
    cpu: &CpuBackend,
    ops: Operands<'_, S>,
    (ga, gb): (&GpuDense<S>, &GpuDense<S>),
    what: &str,
) -> Result<(), Failed> {
    let Operands { m, k, n, a, b, c0 } = ops;
    let mv: Vec<bool> = (0..m * n).map(|i| (i * 7919) % 3 != 0).collect();
    let (gm, cm) = (
        gpu.dense::<OrAnd>(m, n, &mv)?,
        cpu.dense::<OrAnd>(m, n, &mv)?,
    );
    let (ca, cb) = (cpu.dense::<S>(m, k, a)?, cpu.dense::<S>(k, n, b)?);
    for (accum, mk) in MASKED_GEMMS {
        let (gmask, cmask) = match mk {
            0 => (Mask::All, Mask::All),
            1 => (gpu.keep(&gm), cpu.keep(&cm)),
            _ => (gpu.skip(&gm), cpu.skip(&cm)),
        };
        let mut cg = gpu.dense::<S>(m, n, c0)?;
        gpu.gemm(&mut cg, gmask, accum, ga, gb)?;
        let mut cc = cpu.dense::<S>(m, n, c0)?;
        cpu.gemm(&mut cc, cmask, accum, &ca, &cb)?;
        let (g, c) = (gpu.read_dense(&cg)?, cpu.read_dense(&cc)?);
        if let Some(i) = (0..g.len()).find(|&i| g[i].to_bits64() != c[i].to_bits64()) {
            return Err(format!(
                "{} {m}x{k}x{n} {what} {accum:?} mask#{mk}: entry ({}, {}) is {:?} on the GPU, {:?} on the CPU",
                S::full_name(),
                i / n,
                i % n,
                g[i],
                c[i]
            )
            .into());
        }
    }
    Ok(())
}

/// `C<mask> (+)= A B` with [`GemmKernel::Reg128`] against the CPU backend, on shapes around the
/// kernel's 128 x 128 x 16 tiles (one where B's slices take the asynchronous copies), with zeros (no arc) among the values. `domain`: the host's
/// view of the semiring's fast multiply-add domain (always false without one): the kernel must
/// take the fast form exactly when every operand lies in it; `want` says whether some shape
/// must take the fast form and some the exact one.
pub fn gemm_reg128<S: Semiring>(
    domain: impl Fn(S::T) -> bool,
    want: [bool; 2],
    values: impl Fn(u64) -> S::T,
) -> Result<(), Failed> {
    let mut seen = [false; 2];
    let mut gpu = GpuBackend::new()?;
    gpu.set_gemm_kernel(Some(GemmKernel::Reg128));
    let cpu = CpuBackend::new();
    for (m, k, n) in [
        (1, 1, 1),
        (3, 17, 5),
        (128, 16, 128),
        (130, 33, 129),
        (257, 200, 70),
        // Full 128-column blocks and three 16-index slices: B's slices by asynchronous copies
        // (4-byte values), double buffered.
        (130, 48, 256),
    ] {
        let values_of = |len: usize, seed: u64| -> Vec<S::T> {
            (0..len as u64)
                .map(|i| {
                    let h = (i ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                    if h.is_multiple_of(7) {
                        S::zero()
                    } else {
                        values(h % 13 + 1)
                    }
                })
                .collect()
        };
        let (a, b, c0) = (
            values_of(m * k, 1),
            values_of(k * n, 2),
            values_of(m * n, 3),
        );
        let (ga, gb) = (gpu.dense::<S>(m, k, &a)?, gpu.dense::<S>(k, n, &b)?);
        let took = gpu.gemm_takes_fast_path(&ga, &gb)?;
        let fast = a.iter().chain(&b).all(|&v| domain(v));
        seen[if took { 0 } else { 1 }] = true;
        if took != fast {
            return Err(format!(
                "{} {m}x{k}x{n}: fast multiply-add taken: {took}, expected {fast}",
                S::full_name()
            )
            .into());
        }
        let ops = Operands {
            m,
            k,
            n,
            a: &a,
            b: &b,
            c0: &c0,
        };
        masked_gemms_match::<S>(&gpu, &cpu, ops, (&ga, &gb), "")?;
    }
    if seen != want {
        return Err(format!(
            "{}: [fast, exact] forms taken on some shape: {seen:?}, expected {want:?}",
            S::full_name()
        )
        .into());
    }
    Ok(())
}

/// Min-plus `i32` GEMM on the packed 16-bit form: operands in 0..=8191 or infinity (the
/// domain's edges among them) take [`GemmPath::Packed16`]; one operand of 8,192 sends the same
/// product to the 32-bit fast form. Both must equal the CPU bit for bit, with and without
/// accumulation, on shapes around the 128 x 128 x 16 tiles and odd column counts (pairs).
pub fn gemm_packed_i32() -> Result<(), Failed> {
    type S = MinPlus<i32>;
    let gpu = GpuBackend::new()?;
    let cpu = CpuBackend::new();
    let pick = [0, 1, 2, 13, 99, 4_096, 8_190, 8_191, i32::MAX];
    for (m, k, n) in [
        (1, 1, 1),
        (3, 17, 5),
        (128, 16, 128),
        (130, 33, 129),
        (257, 200, 71),
    ] {
        for spoil in [false, true] {
            let values_of = |len: usize, seed: u64| -> Vec<i32> {
                (0..len as u64)
                    .map(|i| {
                        let h = (i ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40;
                        pick[(h % pick.len() as u64) as usize]
                    })
                    .collect()
            };
            let (mut a, b, c0) = (
                values_of(m * k, 1),
                values_of(k * n, 2),
                values_of(m * n, 3),
            );
            if spoil {
                a[m * k / 2] = 8_192;
            }
            let (ga, gb) = (gpu.dense::<S>(m, k, &a)?, gpu.dense::<S>(k, n, &b)?);
            let path = gpu.gemm_path(&ga, &gb)?;
            let want_path = if spoil {
                GemmPath::Reg128Fast
            } else {
                GemmPath::Packed16
            };
            if path != want_path {
                return Err(format!("{m}x{k}x{n}: path {path:?}, expected {want_path:?}").into());
            }
            let what = format!("{path:?}");
            let ops = Operands {
                m,
                k,
                n,
                a: &a,
                b: &b,
                c0: &c0,
            };
            masked_gemms_match::<S>(&gpu, &cpu, ops, (&ga, &gb), &what)?;
        }
    }
    Ok(())
}

/// The domain of min-plus's fast form over `f32` (no NaN, -inf or -0).
pub fn f32_fast(x: f32) -> bool {
    x >= -f32::MAX && x.to_bits() != 0x8000_0000
}

/// The domain of min-plus's fast form over `f64` (no NaN, no -inf).
pub fn f64_fast(x: f64) -> bool {
    x >= -f64::MAX
}

pub fn never<T>(_: T) -> bool {
    false
}
