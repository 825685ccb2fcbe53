//! [`Frontier::queue_relax_buckets`] against a host fixpoint, in every semiring of the suite
//! ([`for_each_suite_semiring!`](crate::for_each_suite_semiring)) that
//! prefers smaller values, and on min-plus graphs with delta-stepping's [`Width`] against
//! Bellman-Ford.

use semigraph_algos::{Buckets, RelaxStep, Width, arcs_to_csr};
use semigraph_formats::ConvertOptions;
use semigraph_semiring::{MinPlus, Scalar};

use super::fixpoint::{HostFixpoint, host_fixpoint, seeds_of};
use super::queues::relaxes;
use super::*;

/// Buckets between sorted thresholds: bucket `b` holds the values from `t[b - 1]` up to (not
/// including) `t[b]`; the last one runs up to the semiring's zero, in no bucket.
struct Thresholds<T> {
    t: Vec<T>,
    zero: T,
}

impl<T: Scalar> Buckets<T> for Thresholds<T> {
    fn bucket(&self, x: T) -> u64 {
        if x.to_bits64() == self.zero.to_bits64() {
            return u64::MAX;
        }
        self.t.partition_point(|t| *t <= x) as u64
    }
    fn bound(&self, b: u64) -> T {
        self.t.get(b as usize).copied().unwrap_or(self.zero)
    }
}

/// [`Frontier::queue_relax_buckets`] on random graphs of every semiring of the suite with `one`
/// below `zero` (min-plus, min-max, ...), every vertex with a random value queued, buckets
/// between quantiles of the values, against the host fixpoint (as
/// [`queue_relax_fixpoint`](Frontier::queue_relax_fixpoint)'s check: where the host
/// converges in at most `n` rounds with at most `n` improvements the backend must reach the
/// fixpoint, where it does not converge it must stop, in between it may do either); then
/// min-plus graphs (`i32`, `f32`) with positive weights from one source with [`Width`]
/// buckets, narrow and wide, against Bellman-Ford's distances; and a negative cycle with
/// [`Width`] buckets, which must stop at the limit.
pub fn check_queue_buckets<B: Frontier>(b: &B) -> Result<(), String> {
    for (g, &(n, per_row)) in [(1, 1), (40, 2), (700, 3), (2500, 4)].iter().enumerate() {
        macro_rules! one {
            ($label:ident, $s:ty) => {
                random_one::<B, $s>(b, n, per_row, 800 + g as u64)?;
            };
        }
        crate::for_each_suite_semiring!(one);
    }
    for (n, seed) in [(3000usize, 1u64), (50_000, 2)] {
        widths::<B, i32>(b, n, seed, |w| (w % 97 + 1) as i32)?;
        widths::<B, f32>(b, n, seed, |w| (w % 61) as f32 * 0.25 + 0.5)?;
    }
    negative_cycle(b)
}

/// A ring of 200 vertices whose weights add up below zero: no fixpoint, so with [`Width`]
/// buckets and a limit of `8 n` improvements the backend must stop (`None`).
fn negative_cycle<B: Frontier>(b: &B) -> Result<(), String> {
    let n = 200usize;
    let arcs: Vec<(u32, u32, i32)> = (0..n)
        .map(|i| {
            (
                i as u32,
                ((i + 1) % n) as u32,
                if i == n / 2 { -400 } else { 1 },
            )
        })
        .collect();
    let err = |e: semigraph_algos::Error| e.to_string();
    let a = arcs_to_csr::<MinPlus<i32>>(n, &arcs).map_err(err)?;
    let m = b
        .matrix(&a, Format::Csr, &ConvertOptions::default())
        .map_err(err)?;
    let mut start = vec![i32::MAX; n];
    start[0] = 0;
    let mut d = b.dense::<MinPlus<i32>>(n, 1, &start).map_err(err)?;
    let (mut q, mut spare) = (
        b.queue::<MinPlus<i32>>(n).map_err(err)?,
        b.queue::<MinPlus<i32>>(n).map_err(err)?,
    );
    b.queue_set(&mut q, &[0], &[0], 0).map_err(err)?;
    let step = RelaxStep::new(&mut d, &m);
    match b
        .queue_relax_buckets(step, &mut q, &mut spare, &Width(10), 8 * n)
        .map_err(err)?
    {
        Some(a) => Err(format!(
            "relax_buckets min-plus i32 on a negative cycle: a fixpoint after {a} appends"
        )),
        None => Ok(()),
    }
}

fn random_one<B: Frontier, S: Semiring>(
    b: &B,
    n: usize,
    per_row: usize,
    seed: u64,
) -> Result<(), String>
where
    S::T: TestValue,
{
    let below = |a: S::T, b: S::T| a.partial_cmp(&b) == Some(std::cmp::Ordering::Less);
    if !relaxes::<S>() || !below(S::one(), S::zero()) {
        return Ok(());
    }
    let name = S::full_name();
    let a = random_csr::<S>(n, n, per_row, seed);
    let e = entries(&a);
    let m = b
        .matrix(&a, Format::Csr, &ConvertOptions::default())
        .map_err(|e| e.to_string())?;
    let start = random_values::<S>(n, seed + 17);
    let HostFixpoint {
        want,
        rounds,
        improved,
        converged,
    } = host_fixpoint::<S>(&start, &e, n);
    // Thresholds at quantiles of the values seen, so that several buckets hold work.
    let mut seen: Vec<S::T> = start
        .iter()
        .chain(&want)
        .copied()
        .filter(|v| !S::is_zero(*v))
        .collect();
    seen.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    seen.dedup_by(|a, b| a.to_bits64() == b.to_bits64());
    let t: Vec<S::T> = (1..6)
        .filter_map(|k| seen.get(seen.len() * k / 6).copied())
        .collect();
    let buckets = Thresholds { t, zero: S::zero() };
    let (idx, vals) = seeds_of::<S>(&start);
    let err = |e: semigraph_algos::Error| e.to_string();
    let mut d = b.dense::<S>(n, 1, &start).map_err(err)?;
    let (mut q, mut spare) = (b.queue::<S>(n).map_err(err)?, b.queue::<S>(n).map_err(err)?);
    b.queue_set(&mut q, &idx, &vals, 0).map_err(err)?;
    let limit = if converged { usize::MAX } else { 8 * n + 8 };
    let got = b
        .queue_relax_buckets(
            RelaxStep::new(&mut d, &m),
            &mut q,
            &mut spare,
            &buckets,
            limit,
        )
        .map_err(err)?;
    let what = format!("relax_buckets {name}, n {n}, {per_row} a row");
    match got {
        Some(_) if !converged => Err(format!("{what}: a fixpoint where the host found none")),
        Some(_) => {
            let gd = b.read_dense(&d).map_err(err)?;
            match gd.iter().zip(&want).position(|(g, w)| !same::<S>(*g, *w)) {
                Some(j) => Err(format!("{what}: d[{j}] = {:?}, want {:?}", gd[j], want[j])),
                None => Ok(()),
            }
        }
        // A backend may stop at a bound of its own (a GPU's fixpoint: 8 n appends a call),
        // which only an instance of more than n improvements or rounds may reach.
        None if converged && rounds <= n && improved <= n => Err(format!(
            "{what}: stopped on an easy instance ({improved} improvements, {rounds} rounds)"
        )),
        None => Ok(()),
    }
}

/// A min-plus graph of `n` vertices (a ring with chords: many rounds, every vertex reached)
/// with weights `weight(k)`, from vertex 0 with [`Width`] buckets of several widths, against
/// Bellman-Ford's distances.
fn widths<B: Frontier, D: semigraph_algos::Distance>(
    b: &B,
    n: usize,
    seed: u64,
    weight: impl Fn(u64) -> D,
) -> Result<(), String> {
    let rng = Rng::new(seed);
    let mut arcs = Vec::with_capacity(3 * n);
    for i in 0..n {
        let k = i as u64 * 3;
        arcs.push((i as u32, ((i + 1) % n) as u32, weight(rng.below(k, 1000))));
        arcs.push((
            ((i + 1) % n) as u32,
            i as u32,
            weight(rng.below(k + 1, 1000)),
        ));
        let far = rng.below(k + 2, n as u64) as u32;
        arcs.push((i as u32, far, weight(rng.below(k + 2, 1000))));
    }
    let a = arcs_to_csr::<MinPlus<D>>(n, &arcs).map_err(|e| e.to_string())?;
    let cpu = semigraph_algos::CpuBackend::new();
    let g = semigraph_algos::Graph::new(&cpu, &a, semigraph_algos::GraphOptions::default())
        .map_err(|e| e.to_string())?;
    let want = semigraph_algos::bellman_ford(&g, 0)
        .map_err(|e| e.to_string())?
        .dist;
    let m = b
        .matrix(&a, Format::Csr, &ConvertOptions::default())
        .map_err(|e| e.to_string())?;
    let err = |e: semigraph_algos::Error| e.to_string();
    for width in [weight(0), weight(500), D::from_f64(1e6)] {
        let mut start = vec![D::INFINITY; n];
        start[0] = <D as semigraph_semiring::Number>::ZERO;
        let mut d = b.dense::<MinPlus<D>>(n, 1, &start).map_err(err)?;
        let mut q = b.queue::<MinPlus<D>>(n).map_err(err)?;
        let mut spare = b.queue::<MinPlus<D>>(n).map_err(err)?;
        b.queue_set(&mut q, &[0], &[start[0]], 0).map_err(err)?;
        let step = RelaxStep::new(&mut d, &m);
        let got = b
            .queue_relax_buckets(step, &mut q, &mut spare, &Width(width), usize::MAX)
            .map_err(err)?;
        let what = format!(
            "relax_buckets min-plus {}, n {n}, width {width}",
            D::TYPE.name()
        );
        if got.is_none() {
            return Err(format!("{what}: stopped without a limit"));
        }
        let gd = b.read_dense(&d).map_err(err)?;
        if let Some(j) = gd.iter().zip(&want).position(|(g, w)| g != w) {
            return Err(format!("{what}: d[{j}] = {}, want {}", gd[j], want[j]));
        }
    }
    Ok(())
}
