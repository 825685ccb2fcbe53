//! `bench bfs|sssp|pagerank|wcc|apsp --gpus 1,2,4`: the distributed algorithm
//! (`semigraph_algos::dist`) on 1, 2, 4, ... GPUs through NCCL, against the one-GPU algorithm
//! in the same run, every run checked against the one-GPU result.

use semigraph_algos::dist::Communicator;
use semigraph_algos::dist::{self, DistGraph, DistOptions};
use semigraph_algos::prelude::*;
use semigraph_algos::{ApspMethod, PageRankOptions, bellman_ford, pagerank_resident, wcc_resident};
use semigraph_gpu::{GpuComm, NcclComm};

use super::*;
use crate::multi::Split;

/// What `--gpus` measures.
#[derive(Clone, Copy, Debug)]
pub(crate) enum DistAlgo {
    /// BFS (levels must equal).
    Bfs,
    /// Bellman-Ford in `i32` (distances must equal).
    Sssp,
    /// PageRank (ranks within 1e-6 relative).
    PageRank(PageRankOptions),
    /// WCC by `FastSV` (labels must equal).
    Wcc,
    /// APSP by min-plus squaring in `i32` (distances must equal).
    Apsp,
}

/// A result the rows compare: levels, distances, labels as integers; ranks as reals.
#[derive(Clone, Debug, PartialEq)]
enum Answer {
    Ints(Vec<i64>),
    Reals(Vec<f64>),
}

impl Answer {
    fn agrees(&self, want: &Answer) -> bool {
        match (self, want) {
            (Answer::Reals(x), Answer::Reals(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .zip(y)
                        .all(|(a, b)| (a - b).abs() <= 1e-6 * b.abs())
            }
            (a, b) => a == b,
        }
    }
}

fn ints<T: Copy + Into<i64>>(v: &[T]) -> Answer {
    Answer::Ints(v.iter().map(|&x| x.into()).collect())
}

/// Runs `f` once to warm up and `runs` times more: the answer of the last run, and the
/// median and minimum of the times `f` measured (the algorithm to its results on the device,
/// without reading them back).
fn timed(
    runs: usize,
    mut f: impl FnMut() -> Res<(Duration, Answer)>,
) -> Res<(Answer, Duration, Duration)> {
    let (_, mut answer) = f()?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let (t, a) = f()?;
        times.push(t);
        answer = a;
    }
    let (median, min) = median_min(times);
    Ok((answer, median, min))
}

/// The time of `run` (which waits for its device work with `wait`), then `read` of its result.
fn clock<R>(
    run: impl FnOnce() -> semigraph_algos::Result<R>,
    wait: impl FnOnce() -> Res<()>,
    read: impl FnOnce(R) -> semigraph_algos::Result<Answer>,
) -> Res<(Duration, Answer)> {
    let t = Instant::now();
    let r = run()?;
    wait()?;
    let elapsed = t.elapsed();
    Ok((elapsed, read(r)?))
}

/// Runs `algo` on one GPU (the one-device algorithm) and through `dist` on each GPU count of
/// `gpus` (comma-separated), and prints one row each.
pub(crate) fn bench(c: &Common, b: &AlgoBench, algo: DistAlgo, gpus: &str) -> Res<()> {
    let counts: Vec<usize> = gpus
        .split(',')
        .map(|s| s.trim().parse::<usize>().ok().filter(|&k| k > 0))
        .collect::<Option<_>>()
        .ok_or_else(|| CliError(format!("--gpus {gpus}: give GPU counts such as 1,2,4")))?;
    let runs = b.runs.max(1);
    let weighted = matches!(algo, DistAlgo::Sssp | DistAlgo::Apsp);
    let (mut g, label) = graph(c, b, weighted)?;
    let s = source(&g, b)?;
    let file = b.file.clone().unwrap_or_else(|| "(generated)".into());
    // Past 2^32 - 1 arcs no CSR of the whole graph is made (32-bit row offsets): each GPU
    // count's ranks take their blocks straight from the arcs.
    let wide = g.len() > u32::MAX as usize;
    let held = match wide {
        true => {
            if !weighted {
                g.weights = semigraph_formats::Weights::None;
            }
            Held::Arcs(g)
        }
        false => Held::Csr(csr_of::<MinPlus<i32>>(&file, &g, !weighted)?),
    };
    let (n, arcs) = match &held {
        Held::Csr(a) => (a.nrows(), a.nnz()),
        Held::Arcs(g) => (g.nrows, g.len()),
    };
    println!(
        "# {algo:?} on {label}: {} vertices, {} arcs; {runs} timed runs after a warm-up, medians",
        n, arcs
    );
    println!(
        "# (graphs uploaded once, before the runs; times to the results on the device: BFS levels (distributed: in blocks on the ranks), ranks, labels; SSSP and APSP to the host)"
    );
    println!(
        "{:<28} {:>5} {:>12} {:>12} {:>10} {:>8}",
        "what", "gpus", "median", "min", "vs 1 GPU", "check"
    );
    // The one-GPU algorithm: the reference answer and the baseline time, unless one GPU
    // cannot hold the graph (then the first GPU count's answer is the reference).
    let one = match &held {
        Held::Csr(a) => one_gpu(algo, a, s, runs)?,
        Held::Arcs(_) => Err(format!(
            "{arcs} arcs: the one-GPU algorithm's CSR takes 32-bit row offsets (at most {}); \
             --gpus 1 splits the graph into blocks on one GPU",
            u32::MAX
        )),
    };
    let (mut want, base) = match one {
        Ok((want, base, base_min)) => {
            println!(
                "{:<28} {:>5} {:>12} {:>12} {:>10} {:>8}",
                "one-GPU algorithm",
                1,
                fmt_duration(base),
                fmt_duration(base_min),
                "1.00x",
                "ref"
            );
            (Some(want), Some(base))
        }
        Err(why) => {
            println!("# one-GPU algorithm not run: {why}");
            println!("# the first GPU count's answer is the reference of the others");
            (None, None)
        }
    };
    let mut dist_one = None;
    for &k in &counts {
        // One GPU holds a graph past 32-bit offsets as blocks of fewer arcs.
        let comm = match (k, &held) {
            (1, Held::Arcs(g)) => {
                let gpu = GpuBackend::new().map_err(|e| CliError(format!("--gpus 1: {e}")))?;
                let comm = crate::multi::blocks_on(gpu, &file, g)?;
                println!("# --gpus 1: {}", comm.describe());
                comm
            }
            _ => GpuComm::Nccl(NcclComm::new(k).map_err(|e| CliError(format!("--gpus {k}: {e}")))?),
        };
        let t = Instant::now();
        let opts = DistOptions {
            push: matches!(algo, DistAlgo::Bfs | DistAlgo::Sssp),
            out: matches!(algo, DistAlgo::Wcc | DistAlgo::PageRank(_)),
            packed: matches!(algo, DistAlgo::PageRank(_)),
        };
        let dg = match &held {
            Held::Csr(a) => Split::Csr(a),
            Held::Arcs(g) => Split::Arcs(g),
        }
        .split(&comm, opts)?;
        // BFS's graph: the same blocks in the parents semiring, made once (as the one-GPU
        // graph's pattern is), not per search.
        let dp = match algo {
            DistAlgo::Bfs => Some(dg.pattern::<BfsSemiring>()?),
            _ => None,
        };
        comm.synchronize().map_err(|e| CliError(e.to_string()))?;
        let setup = t.elapsed();
        let sync = || comm.synchronize().map_err(|e| CliError(e.to_string()));
        let b0 = comm.backend(0);
        let (got, median, min) = timed(runs, || match algo {
            // The levels and parents in blocks on the ranks (as the one GPU's stay on it),
            // gathered after the clock to be checked; the gathered run is the row below.
            DistAlgo::Bfs => {
                let dp = dp.as_ref().expect("made for BFS");
                clock(
                    || dist::bfs_blocks(dp, s, &BfsOptions::default()),
                    sync,
                    |r| Ok(ints(&b0.read_dense(&r.gather(dp)?.levels)?)),
                )
            }
            DistAlgo::Sssp => clock(|| dist::bellman_ford(&dg, s), sync, |r| Ok(ints(&r.dist))),
            DistAlgo::PageRank(o) => clock(
                || dist::pagerank_resident(&dg, &o),
                sync,
                |r| Ok(Answer::Reals(b0.read_dense(&r.ranks)?)),
            ),
            DistAlgo::Wcc => clock(
                || dist::wcc_resident(&dg),
                sync,
                |r| Ok(ints(&b0.read_dense(&r.labels)?)),
            ),
            DistAlgo::Apsp => clock(|| dist::apsp(&dg, false), sync, |r| Ok(ints(&r.dist))),
        })?;
        let check = match &want {
            Some(want) if got.agrees(want) => "ok",
            Some(_) => "WRONG",
            None => "ref",
        };
        if want.is_none() {
            // No one-GPU answer: BFS levels are checked against the arcs themselves.
            if let (DistAlgo::Bfs, Held::Arcs(g), Answer::Ints(levels)) = (algo, &held, &got) {
                check_levels(g, s, levels)
                    .map_err(|e| CliError(format!("--gpus {k}: wrong BFS levels: {e}")))?;
                println!("# BFS levels of {k} GPUs checked against every arc: ok");
            }
        }
        want.get_or_insert(got);
        let base_k = *dist_one.get_or_insert(median);
        let vs = base.map_or("-".into(), |b| {
            format!("{:.2}x", b.as_secs_f64() / median.as_secs_f64())
        });
        println!(
            "{:<28} {:>5} {:>12} {:>12} {:>10} {:>8}",
            format!("distributed (setup {})", fmt_duration(setup)),
            k,
            fmt_duration(median),
            fmt_duration(min),
            vs,
            check
        );
        if let DistAlgo::Bfs = algo {
            // The same search with the levels and parents made whole on rank 0 (`dist::bfs`).
            let (got, median, min) = timed(runs, || {
                let dp = dp.as_ref().expect("made for BFS");
                clock(
                    || dist::bfs_resident(dp, s, &BfsOptions::default()),
                    sync,
                    |r| Ok(ints(&b0.read_dense(&r.levels)?)),
                )
            })?;
            variant_row("  gathered onto rank 0", k, (got, median, min), &want, base)?;
        }
        if k > 1 {
            let (what, t) = exchange(&comm, &dg, algo, runs)?;
            println!(
                "{:<28} {:>5} {:>12} {:>12} {:>10} {:>8}",
                format!("  of which {what}"),
                k,
                fmt_duration(t.0),
                fmt_duration(t.1),
                "",
                ""
            );
        }
        if let (DistAlgo::Apsp, Held::Csr(a)) = (algo, &held)
            && k.isqrt() * k.isqrt() == k
        {
            // D in blocks over a square grid of the GPUs, squared by SUMMA.
            let (got, median, min) = timed(runs, || {
                clock(
                    || dist::apsp_grid(&comm, a, false),
                    sync,
                    |r| Ok(ints(&r.dist)),
                )
            })?;
            let q = k.isqrt();
            let what = format!("grid {q}x{q} (SUMMA)");
            variant_row(&what, k, (got, median, min), &want, base)?;
            if k > 1 {
                let t = grid_exchange(&comm, a.nrows(), runs.max(3))?;
                println!(
                    "{:<28} {:>5} {:>12} {:>12} {:>10} {:>8}",
                    "  of which block exchange",
                    k,
                    fmt_duration(t.0),
                    fmt_duration(t.1),
                    "",
                    ""
                );
            }
        }
        if counts.len() > 1 && k == counts[counts.len() - 1] {
            println!(
                "# {k} GPUs against the distributed run on {}: {:.2}x",
                counts[0],
                base_k.as_secs_f64() / median.as_secs_f64()
            );
        }
        if check == "WRONG" {
            return Err(CliError(format!(
                "--gpus {k}: the distributed result differs from one GPU's"
            )));
        }
    }
    Ok(())
}

/// One more row of GPU count `k` (a variant of the distributed run): its median against the
/// one-GPU `base`, and its answer against the reference; an error if it differs.
fn variant_row(
    what: &str,
    k: usize,
    (got, median, min): (Answer, Duration, Duration),
    want: &Option<Answer>,
    base: Option<Duration>,
) -> Res<()> {
    let vs = base.map_or("-".into(), |b| {
        format!("{:.2}x", b.as_secs_f64() / median.as_secs_f64())
    });
    let ok = want.as_ref().is_some_and(|w| got.agrees(w));
    println!(
        "{:<28} {:>5} {:>12} {:>12} {:>10} {:>8}",
        what,
        k,
        fmt_duration(median),
        fmt_duration(min),
        vs,
        if ok { "ok" } else { "WRONG" }
    );
    match ok {
        true => Ok(()),
        false => Err(CliError(format!(
            "--gpus {k}: {} differs from the reference answer",
            what.trim()
        ))),
    }
}

/// The graph as the bench holds it: its CSR, or past 2^32 - 1 arcs (32-bit row offsets) the
/// arcs themselves, which each GPU count's ranks take their blocks from.
enum Held {
    Csr(semigraph_formats::Csr<MinPlus<i32>>),
    Arcs(semigraph_formats::EdgeList),
}

/// BFS levels from `s` (`u32::MAX`: unreached) checked against every arc of `g`, by the
/// rules of Graph500's validation: the source is at level 0; an arc from a reached vertex
/// reaches a vertex at most one level further; every other reached vertex has an in-arc from
/// the level before. Together these make the levels the hop distances from `s`.
fn check_levels(g: &semigraph_formats::EdgeList, s: usize, levels: &[i64]) -> Result<(), String> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    let unreached = u32::MAX as i64;
    if levels.len() != g.nrows || levels.get(s) != Some(&0) {
        return Err(format!(
            "{} levels, the source's {:?}",
            levels.len(),
            levels.get(s)
        ));
    }
    let fed: Vec<AtomicBool> = (0..g.nrows)
        .into_par_iter()
        .map(|_| AtomicBool::new(false))
        .collect();
    let bad = (0..g.len()).into_par_iter().find_any(|&k| {
        let (u, v) = (g.src[k] as usize, g.dst[k] as usize);
        let (lu, lv) = (levels[u], levels[v]);
        if lu == unreached {
            return false;
        }
        if lv == unreached || lv > lu + 1 {
            return true;
        }
        if lv == lu + 1 {
            fed[v].store(true, Ordering::Relaxed);
        }
        false
    });
    if let Some(k) = bad {
        let (u, v) = (g.src[k] as usize, g.dst[k] as usize);
        return Err(format!(
            "arc {u} -> {v} between levels {} and {}",
            levels[u], levels[v]
        ));
    }
    match (0..g.nrows)
        .into_par_iter()
        .find_any(|&v| v != s && levels[v] != unreached && !fed[v].load(Ordering::Relaxed))
    {
        Some(v) => Err(format!(
            "vertex {v} at level {} has no in-arc from the level before",
            levels[v]
        )),
        None => Ok(()),
    }
}

/// The one-GPU algorithm on `a` uploaded once (as the distributed graph is), timed as
/// [`timed`]: its answer, median and minimum; `Ok(Err(why))` when the GPU refuses the graph
/// (its memory), so that the distributed rows still run. The graph is freed on return.
fn one_gpu(
    algo: DistAlgo,
    a: &semigraph_formats::Csr<MinPlus<i32>>,
    s: usize,
    runs: usize,
) -> Res<Result<(Answer, Duration, Duration), String>> {
    let one = GpuBackend::new().map_err(|e| CliError(format!("--gpus: {e}")))?;
    let opts = GraphOptions {
        pull: !matches!(algo, DistAlgo::Apsp),
        ..Default::default()
    };
    let gw = match Graph::new(&one, a, opts) {
        Ok(gw) => gw,
        Err(e @ semigraph_algos::Error::OutOfMemory { .. }) => return Ok(Err(e.to_string())),
        Err(e) => return Err(e.into()),
    };
    // BFS's graph: the same upload seen in its semiring (no transfer).
    let gp = gw.pattern::<BfsSemiring>()?;
    let sync_one = || one.synchronize().map_err(CliError::from);
    let run_one = || -> Res<(Duration, Answer)> {
        match algo {
            DistAlgo::Bfs => clock(
                || bfs_resident(&gp, s, &BfsOptions::default()),
                sync_one,
                |r| Ok(ints(&one.read_dense(&r.levels)?)),
            ),
            DistAlgo::Sssp => clock(|| bellman_ford(&gw, s), sync_one, |r| Ok(ints(&r.dist))),
            DistAlgo::PageRank(o) => clock(
                || pagerank_resident(&gw, &o),
                sync_one,
                |r| Ok(Answer::Reals(one.read_dense(&r.ranks)?)),
            ),
            DistAlgo::Wcc => clock(
                || wcc_resident(&gw),
                sync_one,
                |r| Ok(ints(&one.read_dense(&r.labels)?)),
            ),
            DistAlgo::Apsp => {
                let o = ApspOptions {
                    next_hop: false,
                    method: ApspMethod::Squaring,
                };
                clock(|| apsp(&gw, &o), sync_one, |r| Ok(ints(&r.dist)))
            }
        }
    };
    Ok(Ok(timed(runs, run_one)?))
}

/// The dense exchange one step of `algo` makes (BFS and Bellman-Ford exchange queues instead:
/// their row times the all-gather of `n` labels), timed alone: median and minimum of `runs`
/// all-gathers after a warm-up, each waited for. What the distributed time is made of.
fn exchange<S: semigraph_semiring::Semiring>(
    comm: &GpuComm,
    dg: &DistGraph<'_, GpuComm, S>,
    algo: DistAlgo,
    runs: usize,
) -> Res<(String, (Duration, Duration))> {
    let part = dg.partition();
    let n = part.n();
    fn gather<T: semigraph_semiring::Semiring>(
        comm: &GpuComm,
        part: &dist::Partition,
        cols: usize,
        runs: usize,
    ) -> Res<(Duration, Duration)> {
        let each = |f: &dyn Fn(usize, &GpuBackend) -> semigraph_algos::Result<_>| {
            (0..comm.ranks())
                .map(|r| f(r, comm.backend(r)))
                .collect::<semigraph_algos::Result<Vec<_>>>()
        };
        let local = each(&|r, b| b.dense_filled::<T>(part.range(r).len(), cols, T::one()))?;
        let mut whole = each(&|_, b| b.dense_filled::<T>(part.n(), cols, T::zero()))?;
        let mut times = Vec::with_capacity(runs);
        for i in 0..=runs {
            comm.synchronize().map_err(|e| CliError(e.to_string()))?;
            let t = Instant::now();
            comm.all_gather_from::<T>(&local, &mut whole, part)?;
            comm.synchronize().map_err(|e| CliError(e.to_string()))?;
            if i > 0 {
                times.push(t.elapsed());
            }
        }
        Ok(median_min(times))
    }
    Ok(match algo {
        DistAlgo::PageRank(_) => {
            // The scaled ranks of the vertices with out-arcs when the columns are packed.
            let part = dg.packed().map_or(part, |p| p.partition());
            (
                format!("all-gather {} f64", part.n()),
                gather::<semigraph_algos::PageRankSemiring>(comm, part, 1, runs.max(5))?,
            )
        }
        DistAlgo::Apsp => (
            format!("all-gather {n}x{n} i32"),
            gather::<MinPlus<i32>>(comm, part, n, runs)?,
        ),
        _ => (
            format!("all-gather {n} u32"),
            gather::<MinPlus<u32>>(comm, part, 1, runs.max(5))?,
        ),
    })
}

/// The blocks one SUMMA product over a square grid of `comm`'s ranks moves (`q` steps, each
/// a broadcast along the grid's rows and one along its columns, of `ceil(n / q)`-square
/// blocks of `i32`), timed alone: median and minimum of `runs` products after a warm-up.
fn grid_exchange(comm: &GpuComm, n: usize, runs: usize) -> Res<(Duration, Duration)> {
    type M = MinPlus<i32>;
    let grid = dist::Grid::square(comm.ranks(), n)?;
    let nb = grid.block();
    let blocks = |v: i32| -> Res<Vec<_>> {
        (0..comm.ranks())
            .map(|r| Ok(comm.backend(r).dense_filled::<M>(nb, nb, v)?))
            .collect()
    };
    let src = blocks(1)?;
    let mut summa = dist::Summa::<GpuComm, M>::new(comm, grid)?;
    let mut times = Vec::with_capacity(runs);
    for i in 0..=runs {
        comm.synchronize().map_err(|e| CliError(e.to_string()))?;
        let t = Instant::now();
        for l in 0..grid.q() {
            summa.exchange(l, &src, &src)?;
        }
        comm.synchronize().map_err(|e| CliError(e.to_string()))?;
        if i > 0 {
            times.push(t.elapsed());
        }
    }
    Ok(median_min(times))
}

#[cfg(test)]
mod tests {
    use super::check_levels;

    #[test]
    fn levels_are_checked_against_the_arcs() {
        // 0 -> 1 -> 2, 2 -> 0, 3 alone.
        let mut g = semigraph_formats::EdgeList::new(4, 4);
        (g.src, g.dst) = (vec![0, 1, 2], vec![1, 2, 0]);
        let none = u32::MAX as i64;
        assert_eq!(check_levels(&g, 0, &[0, 1, 2, none]), Ok(()));
        assert!(
            check_levels(&g, 0, &[0, 2, 3, none]).is_err(),
            "1 is one arc away"
        );
        assert!(
            check_levels(&g, 0, &[0, 1, none, none]).is_err(),
            "2 is reachable"
        );
        assert!(
            check_levels(&g, 0, &[0, 1, 2, 3]).is_err(),
            "3 has no in-arc"
        );
        assert!(
            check_levels(&g, 0, &[1, 1, 2, none]).is_err(),
            "the source is at 0"
        );
        assert!(
            check_levels(&g, 0, &[0, 1, 1, none]).is_err(),
            "2 has no in-arc at level 0"
        );
    }
}
