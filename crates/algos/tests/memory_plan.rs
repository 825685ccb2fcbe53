#![allow(missing_docs)]
//! The memory a run announces covers the memory it uses: a counting allocator measures the
//! peak of `Graph::new`, the traversals and APSP on the CPU backend above what was held before
//! each call, against `graph_host_bytes`, `traversal_host_bytes` and `apsp_host_bytes` (what
//! the `semigraph` command checks against the machine before it starts), and of the split of
//! an edge list into ranks' blocks against `dist::split_host_bytes` (what the split checks).

use std::sync::Mutex;

use peak_alloc::PeakAlloc;
use semigraph_algos::{
    ApspMethod, ApspOptions, BackendKind, BfsOptions, BfsSemiring, CpuBackend, DeltaGraph, Graph,
    GraphOptions, apsp, apsp_host_bytes, bellman_ford, bfs, delta_stepping, graph_host_bytes,
    traversal_host_bytes,
};
use semigraph_formats::{EdgeList, Format, Weights, generate};
use semigraph_semiring::MinPlus;

#[global_allocator]
static ALLOC: PeakAlloc = PeakAlloc;

static ONE: Mutex<()> = Mutex::new(());

fn peak_of<T>(f: impl FnOnce() -> T) -> (u64, T) {
    let before = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    let r = f();
    ((ALLOC.peak_usage() - before) as u64, r)
}

fn graphs() -> Vec<(&'static str, EdgeList)> {
    let mut sparse = EdgeList::new(300_000, 300_000);
    sparse.src = vec![0, 1, 2];
    sparse.dst = vec![1, 2, 299_999];
    sparse.weights = Weights::Int(vec![1, 2, 3]);
    let mut kron = generate::kronecker(13, 16, 5);
    kron.weights = Weights::Int((0..kron.len() as i64).map(|k| 1 + k % 97).collect());
    vec![
        ("sparse", sparse),
        ("grid", generate::grid(200, 200, 1, 9, 2)),
        ("kronecker", kron),
    ]
}

/// A rayon pool of `threads` threads.
fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool")
}

/// In a pool of one thread and of four (where the builds and transposes run on every core,
/// with their own peaks).
#[test]
fn runs_stay_within_their_plans() {
    let _one = ONE.lock().unwrap();
    for threads in [1, 4] {
        pool(threads).install(runs_stay_within_their_plans_here);
    }
}

fn runs_stay_within_their_plans_here() {
    let cpu = CpuBackend::new();
    let kind = BackendKind::Cpu;
    for (name, g) in graphs() {
        let n = g.num_vertices();
        let a = g.to_csr::<MinPlus<i64>, u32>().unwrap();
        for format in [Some(Format::Csr), None] {
            let opts = GraphOptions {
                pull: true,
                format,
                ..Default::default()
            };
            let plan = graph_host_bytes(kind, n, a.nnz(), 8, true);
            let (peak, gr) = peak_of(|| Graph::new(&cpu, &a, opts).unwrap());
            if format == Some(Format::Csr) {
                assert!(
                    peak <= plan,
                    "{name}: Graph::new used {peak}, planned {plan}"
                );
            }
            eprintln!("{name} {format:?}: graph {peak} of {plan}");
            let plan = traversal_host_bytes(kind, n, 8);
            let (peak, _) = peak_of(|| bellman_ford(&gr, 0).unwrap());
            eprintln!("{name}: bellman-ford {peak} of {plan}");
            assert!(
                peak <= plan,
                "{name}: bellman_ford used {peak}, planned {plan}"
            );
            let p = gr.pattern::<BfsSemiring>().unwrap();
            let plan = traversal_host_bytes(kind, n, 4);
            let (peak, _) = peak_of(|| bfs(&p, 0, &BfsOptions::default()).unwrap());
            eprintln!("{name}: bfs {peak} of {plan}");
            assert!(peak <= plan, "{name}: bfs used {peak}, planned {plan}");
        }
        let dg = DeltaGraph::new(&cpu, &a, None).unwrap();
        let plan = traversal_host_bytes(kind, n, 8);
        let (peak, _) = peak_of(|| delta_stepping(&dg, 0).unwrap());
        eprintln!("{name}: delta {peak} of {plan}");
        assert!(
            peak <= plan,
            "{name}: delta_stepping used {peak}, planned {plan}"
        );
    }
}

#[test]
fn apsp_stays_within_its_plan() {
    let _one = ONE.lock().unwrap();
    let cpu = CpuBackend::new();
    let g = generate::grid(16, 16, 1, 9, 3);
    let n = g.num_vertices();
    let a = g.to_csr::<MinPlus<i32>, u32>().unwrap();
    let gr = Graph::new(&cpu, &a, GraphOptions::default()).unwrap();
    for method in [ApspMethod::Squaring, ApspMethod::Sources] {
        for next_hop in [false, true] {
            let plan = apsp_host_bytes(BackendKind::Cpu, n, 4, next_hop, method);
            let (peak, _) = peak_of(|| apsp(&gr, &ApspOptions { next_hop, method }).unwrap());
            eprintln!("apsp {method:?} {next_hop}: {peak} of {plan}");
            assert!(
                peak <= plan,
                "{method:?} next_hop {next_hop}: used {peak}, planned {plan}"
            );
        }
    }
}

/// The split of an edge list into ranks' blocks (`DistGraph::from_edges`, in pools of one and
/// four threads) stays within `dist::split_host_bytes` of its largest block, beside what the
/// CPU backend's ranks keep of the blocks (on a GPU those are device memory).
#[test]
fn splits_stay_within_their_plans() {
    use semigraph_algos::dist::{DistGraph, DistOptions, LocalComm, split_host_bytes};
    use semigraph_algos::prelude::Objects;
    let _one = ONE.lock().unwrap();
    for threads in [1, 4] {
        pool(threads).install(|| {
            let cpu = CpuBackend::new();
            for (name, g) in graphs() {
                for k in [1, 3] {
                    let comm = LocalComm::new(vec![&cpu; k]);
                    for (push, out, pattern) in [(true, false, true), (false, true, false)] {
                        let opts = DistOptions {
                            push,
                            out,
                            packed: false,
                        };
                        let before = ALLOC.current_usage() as u64;
                        // The graph is kept until `kept` is read: what the ranks hold of it. An
                        // undirected graph's out-blocks are dropped at the end (they equal the
                        // pull blocks), after the ranks held them during the split.
                        let held = |kept: u64, twice: bool| if twice { 2 * kept } else { kept };
                        let (peak, kept) = match pattern {
                            true => {
                                let (peak, dg) = peak_of(|| {
                                    DistGraph::<_, BfsSemiring>::pattern_from_edges(&comm, &g, opts)
                                        .unwrap()
                                });
                                let kept = ALLOC.current_usage() as u64 - before;
                                (peak, held(kept, out && dg.is_undirected()))
                            }
                            false => {
                                let (peak, dg) = peak_of(|| {
                                    DistGraph::<_, MinPlus<i64>>::from_edges(&comm, &g, opts)
                                        .unwrap()
                                });
                                let kept = ALLOC.current_usage() as u64 - before;
                                (peak, held(kept, out && dg.is_undirected()))
                            }
                        };
                        // The largest block, as the split's partition makes it.
                        let pg = DistGraph::<_, BfsSemiring>::pattern_from_edges(&comm, &g, opts)
                            .unwrap();
                        let largest = (0..k)
                            .map(|r| {
                                let info = cpu.matrix_info(pg.pull(r));
                                (info.nrows, info.nnz)
                            })
                            .max_by_key(|&(_, m)| m)
                            .unwrap();
                        let (list, value) = if pattern { (0, 4) } else { (8, 8) };
                        let plan = split_host_bytes(g.num_vertices(), largest, list, value, (push, out));
                        eprintln!("{name} on {k} ranks, {threads} threads, push {push}: split {peak} of {plan} + {kept} kept");
                        assert!(
                            peak <= plan + kept,
                            "{name} on {k} ranks ({threads} threads, push {push}, out {out}): \
                             the split used {peak}, planned {plan} beside {kept} kept"
                        );
                    }
                }
            }
        });
    }
}

/// The Graphalytics kernels on a built graph (the CLI's kernels: a pattern with its pull
/// matrix) stay within `kernel_host_bytes`, in pools of one and four threads (the products'
/// dense rows of marks are one a worker).
#[test]
fn kernels_stay_within_their_plans() {
    use semigraph_algos::memory::{Kernel, kernel_host_bytes};
    use semigraph_algos::{PageRankOptions, cdlp, lcc, pagerank, triangles_per_vertex, wcc};
    use semigraph_semiring::OrAnd;
    let _one = ONE.lock().unwrap();
    for threads in [1, 4] {
        pool(threads).install(|| {
            let cpu = CpuBackend::new();
            for (name, g) in graphs() {
                let n = g.num_vertices();
                let a = g.to_pattern_csr::<OrAnd, u32>().unwrap();
                let opts = GraphOptions {
                    pull: true,
                    ..Default::default()
                };
                let gr = Graph::new(&cpu, &a, opts).unwrap();
                let plan = |k| kernel_host_bytes(BackendKind::Cpu, k, n, a.nnz(), threads);
                let runs: [(Kernel, &dyn Fn()); 5] = [
                    (Kernel::PageRank, &|| {
                        pagerank(&gr, &PageRankOptions::default()).unwrap();
                    }),
                    (Kernel::Wcc, &|| {
                        wcc(&gr).unwrap();
                    }),
                    (Kernel::Cdlp, &|| {
                        cdlp(&gr, 3).unwrap();
                    }),
                    (Kernel::Lcc, &|| {
                        lcc(&gr).unwrap();
                    }),
                    (Kernel::Triangles, &|| {
                        triangles_per_vertex(&gr).unwrap();
                    }),
                ];
                for (k, run) in runs {
                    let (peak, _) = peak_of(run);
                    let plan = plan(k);
                    eprintln!(
                        "{name}, {threads} threads: {k:?} {peak} of {plan} ({:.2})",
                        peak as f64 / plan as f64
                    );
                    assert!(
                        peak <= plan,
                        "{name}, {threads} threads: {k:?} used {peak}, planned {plan}"
                    );
                }
            }
        });
    }
}
