//! Timing every variant (format, and CSR kernel on the GPU) of each semiring on one matrix.

use semigraph_algos::prelude::*;
use semigraph_algos::{Accum, CpuBackend, Mask};
use semigraph_formats::{ConvertOptions, EdgeList, Format, Stats};
use semigraph_gpu::{CsrKernel, GpuBackend};
use semigraph_semiring::{OrAnd, Semiring};

use super::StudyArgs;
use super::manifest::Entry;
use super::table::Measured;
use crate::bench::spmv::{Problem, check, median_min_ms, time_host};
use crate::error::{CliError, Res};

/// The other formats, on both backends.
const FORMATS: [Format; 5] = [
    Format::Ell,
    Format::Dia,
    Format::Coo,
    Format::Hyb,
    Format::Dense,
];

/// Dense runs only up to this many values (256 MiB of `f32`).
const MAX_DENSE: usize = 1 << 26;

/// The semirings the study knows, as `name:type`.
pub(crate) const KNOWN: &str =
    "min-plus:f32, min-plus:i32, or-and:bool, plus-times:f32, max-min:f32";

/// A variant's name in the table: `csr/KERNEL` on the GPU, `csr` on the CPU, else the format.
pub(crate) fn variant_name(format: Format, kernel: Option<CsrKernel>) -> String {
    match kernel {
        Some(k) => format!("csr/{}", k.name()),
        None => format.name().to_string(),
    }
}

/// The backends and settings of a study.
pub(crate) struct Context {
    gpu: Option<GpuBackend>,
    cpu: Option<CpuBackend>,
    semirings: Vec<String>,
    cpu_semirings: Vec<String>,
    runs: usize,
    large_nnz: usize,
    large_semirings: usize,
    terminal_x_density: f64,
}

impl Context {
    pub(crate) fn new(a: &StudyArgs) -> Res<Context> {
        let gpu = if a.gpu {
            Some(
                GpuBackend::new()
                    .map_err(|e| CliError(format!("bench formats on the GPU: {e}")))?,
            )
        } else {
            None
        };
        for s in a.semirings.iter().chain(&a.cpu_semirings) {
            if !KNOWN.split(", ").any(|k| k == s) {
                return Err(CliError(format!(
                    "bench formats: unknown semiring {s} (known: {KNOWN})"
                )));
            }
        }
        if !(a.terminal_x_density > 0.0 && a.terminal_x_density <= 1.0) {
            return Err(CliError(format!(
                "--terminal-x-density: {} is not a share in (0, 1]",
                a.terminal_x_density
            )));
        }
        Ok(Context {
            gpu,
            cpu: a.cpu.then(CpuBackend::new),
            semirings: a.semirings.clone(),
            cpu_semirings: a.cpu_semirings.clone(),
            runs: a.runs.max(20),
            large_nnz: a.large_nnz,
            large_semirings: a.large_semirings.max(1),
            terminal_x_density: a.terminal_x_density,
        })
    }

    /// Every variant of every semiring on both backends for `g`.
    pub(crate) fn matrix(&mut self, e: &Entry, g: &EdgeList, quiet: bool) -> Res<Vec<Measured>> {
        let pattern = g.to_pattern_csr::<OrAnd, u32>()?;
        let base = Measured::base(e, Stats::of(&pattern).features());
        let keep = if pattern.nnz() > self.large_nnz {
            self.large_semirings
        } else {
            usize::MAX
        };
        drop(pattern);
        let mut rows = Vec::new();
        let runs = Runs {
            runs: self.runs,
            terminal_x_density: self.terminal_x_density,
        };
        if let Some(gpu) = self.gpu.as_mut() {
            for s in self.semirings.iter().take(keep) {
                crate::bench::for_semiring!(
                    s,
                    gpu_semiring,
                    gpu,
                    g,
                    runs,
                    &base,
                    &mut rows,
                    quiet
                )?;
            }
        }
        if let Some(cpu) = &self.cpu {
            for s in self.cpu_semirings.iter().take(keep) {
                crate::bench::for_semiring!(
                    s,
                    cpu_semiring,
                    cpu,
                    g,
                    runs,
                    &base,
                    &mut rows,
                    quiet
                )?;
            }
        }
        Ok(rows)
    }
}

/// How each variant is run: timed runs, and `x`'s density for terminal semirings.
#[derive(Clone, Copy)]
struct Runs {
    runs: usize,
    terminal_x_density: f64,
}

/// Conversion limits of the study: the library's, with dense up to [`MAX_DENSE`] values.
fn options() -> ConvertOptions {
    ConvertOptions {
        max_dense_entries: MAX_DENSE,
        ..Default::default()
    }
}

/// The GPU: every CSR kernel and every other format, device-timed (CUDA events).
fn gpu_semiring<S: Semiring>(
    gpu: &mut GpuBackend,
    g: &EdgeList,
    Runs {
        runs,
        terminal_x_density,
    }: Runs,
    base: &Measured,
    rows: &mut Vec<Measured>,
    quiet: bool,
) -> Res<()>
where
    S::T: semigraph_formats::WeightValue,
{
    let Problem { a, x, want, .. } = Problem::<S>::of(g, terminal_x_density)?;
    let xd = gpu.dense::<S>(a.ncols(), 1, &x)?;
    let variants = CsrKernel::ALL
        .iter()
        .map(|&k| (Format::Csr, Some(k)))
        .chain(FORMATS.iter().map(|&f| (f, None)));
    for (format, kernel) in variants {
        let name = variant_name(format, kernel);
        gpu.set_csr_kernel(kernel);
        let m = match gpu.matrix(&a, format, &options()) {
            Ok(m) => m,
            Err(e) => {
                rows.push(base.refused("gpu", &S::full_name(), &name, &e.to_string()));
                continue;
            }
        };
        let mut y = gpu.dense_filled::<S>(a.nrows(), 1, S::zero())?;
        gpu.mxm(&mut y, Mask::All, Accum::Replace, &m, &xd)?;
        let verdict = check::<S>(&gpu.read_dense(&y)?, &want);
        let t = gpu.time(3, runs, || -> Res<()> {
            gpu.mxm(&mut y, Mask::All, Accum::Replace, &m, &xd)?;
            Ok(())
        })?;
        if !quiet && verdict != "ok" {
            eprintln!(
                "semigraph bench formats: {} gpu {} {name}: {verdict}",
                base.matrix,
                S::full_name()
            );
        }
        rows.push(base.timed(
            "gpu",
            &S::full_name(),
            &name,
            t.median_ms(),
            t.min_ms(),
            runs,
            &verdict,
        ));
    }
    gpu.set_csr_kernel(None);
    Ok(())
}

/// The CPU backend: every format, host-timed.
fn cpu_semiring<S: Semiring>(
    cpu: &CpuBackend,
    g: &EdgeList,
    Runs {
        runs,
        terminal_x_density,
    }: Runs,
    base: &Measured,
    rows: &mut Vec<Measured>,
    quiet: bool,
) -> Res<()>
where
    S::T: semigraph_formats::WeightValue,
{
    let Problem { a, x, want, .. } = Problem::<S>::of(g, terminal_x_density)?;
    let xd = cpu.dense::<S>(a.ncols(), 1, &x)?;
    for format in std::iter::once(Format::Csr).chain(FORMATS) {
        let name = variant_name(format, None);
        let m = match cpu.matrix(&a, format, &options()) {
            Ok(m) => m,
            Err(e) => {
                rows.push(base.refused("cpu", &S::full_name(), &name, &e.to_string()));
                continue;
            }
        };
        let mut y = cpu.dense_filled::<S>(a.nrows(), 1, S::zero())?;
        cpu.mxm(&mut y, Mask::All, Accum::Replace, &m, &xd)?;
        let verdict = check::<S>(&cpu.read_dense(&y)?, &want);
        let mut failed = None;
        let times = time_host(runs, || {
            if let Err(e) = cpu.mxm(&mut y, Mask::All, Accum::Replace, &m, &xd) {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
        let (med, min) = median_min_ms(times);
        if !quiet && verdict != "ok" {
            eprintln!(
                "semigraph bench formats: {} cpu {} {name}: {verdict}",
                base.matrix,
                S::full_name()
            );
        }
        rows.push(base.timed("cpu", &S::full_name(), &name, med, min, runs, &verdict));
    }
    Ok(())
}
