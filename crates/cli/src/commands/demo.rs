//! `semigraph demo`: generated graphs, every algorithm, every result checked against an
//! independent oracle (queue BFS, binary-heap Dijkstra, Floyd-Warshall), one table.

use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use semigraph_algos::prelude::*;
use semigraph_algos::testing::{
    TestGraph, check_apsp, check_bfs, check_shortest_paths, oracle_dijkstra,
};
use semigraph_algos::{
    ApspOptions, BfsOptions, BfsSemiring, CpuBackend, DeltaGraph, Frontier, Graph, GraphOptions,
    apsp, bellman_ford, bfs, delta_stepping,
};
use semigraph_formats::edgelist::WeightSpec;
use semigraph_formats::{EdgeList, generate};
use semigraph_semiring::MinPlus;
use serde_json::json;

use crate::args::{BackendChoice, BackendOpt, Common, DemoSize, JsonOpt, WriteOpt};
use crate::error::Res;

/// Generates a road-like grid and a Kronecker graph, runs BFS, both SSSP algorithms and
/// APSP, checks every result against an independent oracle and prints a table.
#[derive(clap::Args, Clone, Debug)]
pub struct DemoArgs {
    /// Graph sizes.
    #[arg(long, value_enum, default_value_t = DemoSize::Medium)]
    pub size: DemoSize,
    #[command(flatten)]
    pub backend: BackendOpt,
    #[command(flatten)]
    pub write: WriteOpt,
    #[command(flatten)]
    pub json: JsonOpt,
}
use crate::output::{Output, fmt_duration, teps};

/// One line of the table.
struct Row {
    graph: String,
    algorithm: String,
    backend: String,
    format: String,
    time: Duration,
    /// The rate as a number and its unit (`MTEPS`: millions of arcs traversed per second;
    /// `G(min,+)/s`: billions of semiring multiply-adds per second).
    rate: (f64, &'static str),
    check: Result<String, String>,
}

/// Millions of arcs traversed per second.
fn mteps(arcs: usize, t: Duration) -> (f64, &'static str) {
    (arcs as f64 / t.as_secs_f64().max(1e-9) / 1e6, "MTEPS")
}

pub(crate) fn exec(c: &Common, size: DemoSize) -> Res<ExitCode> {
    let rows = match crate::opening::open_gpu(c)?.gpu {
        Ok(gpu) => {
            if !c.quiet {
                eprintln!("semigraph demo: backend {}", gpu.name());
                eprintln!(
                    "semigraph demo: warming up (one untimed pass compiles every kernel the demo uses)"
                );
            }
            // Kernels compile on first use, and which ones a graph needs depends on its
            // structure (the CSR kernel, say): one untimed pass over the same graphs keeps
            // compile time out of the times below.
            let quiet = Common {
                quiet: true,
                ..c.clone()
            };
            run_on(&gpu, &quiet, size)?;
            let rows = run_on(&gpu, c, size)?;
            if !c.quiet {
                let st = gpu.compile_stats();
                eprintln!(
                    "semigraph demo: {} kernels compiled in {:.2} s, {} read from the disk cache in {:.3} s (not in the times below)",
                    st.compiled,
                    st.compile_time.as_secs_f64(),
                    st.from_disk,
                    st.disk_time.as_secs_f64()
                );
            }
            rows
        }
        Err(why) => {
            let cpu = CpuBackend::new();
            if !c.quiet {
                let note = if c.backend == BackendChoice::Auto {
                    format!("no usable GPU ({why}), so ")
                } else {
                    String::new()
                };
                eprintln!("semigraph demo: backend {note}{}", cpu.name());
            }
            run_on(&cpu, c, size)?
        }
    };
    let failed = rows.iter().filter(|r| r.check.is_err()).count();
    let out = Output::new(c);
    out.write(|w| {
        if c.json {
            let v: Vec<_> = rows
                .iter()
                .map(|r| {
                    json!({"graph": r.graph, "algorithm": r.algorithm, "backend": r.backend, "format": r.format,
                        "time_ms": r.time.as_secs_f64() * 1e3, "rate": r.rate.0, "rate_unit": r.rate.1,
                        "check": match &r.check { Ok(m) => json!({"ok": true, "detail": m}), Err(e) => json!({"ok": false, "detail": e}) }})
                })
                .collect();
            writeln!(w, "{}", serde_json::to_string_pretty(&json!({"rows": v, "failed": failed})).expect("serializable"))
        } else {
            table(w, &rows)?;
            if failed == 0 {
                writeln!(w, "all {} checks passed", rows.len())
            } else {
                writeln!(w, "{failed} of {} checks FAILED", rows.len())
            }
        }
    })?;
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn table(w: &mut dyn Write, rows: &[Row]) -> std::io::Result<()> {
    let head = [
        "graph",
        "algorithm",
        "backend",
        "format",
        "time",
        "rate",
        "check",
    ];
    let cells: Vec<[String; 7]> = rows
        .iter()
        .map(|r| {
            [
                r.graph.clone(),
                r.algorithm.clone(),
                r.backend.clone(),
                r.format.clone(),
                fmt_duration(r.time),
                if r.rate.1 == "MTEPS" {
                    teps((r.rate.0 * 1e6) as usize, Duration::from_secs(1))
                } else {
                    format!("{:.2} {}", r.rate.0, r.rate.1)
                },
                match &r.check {
                    Ok(m) => format!("ok ({m})"),
                    Err(e) => format!("FAILED: {e}"),
                },
            ]
        })
        .collect();
    let mut width = head.map(str::len);
    for row in &cells {
        for (k, c) in row.iter().enumerate() {
            width[k] = width[k].max(c.len());
        }
    }
    let line = |w: &mut dyn Write, cols: &[&str]| -> std::io::Result<()> {
        let s: Vec<String> = cols
            .iter()
            .enumerate()
            .map(|(k, c)| format!("{c:<0$}", width[k]))
            .collect();
        writeln!(w, "{}", s.join("  ").trim_end())
    };
    line(w, &head)?;
    line(
        w,
        &width
            .map(|n| "-".repeat(n))
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    )?;
    for row in &cells {
        line(w, &row.iter().map(String::as_str).collect::<Vec<_>>())?;
    }
    Ok(())
}

struct Sizes {
    grid: usize,
    kron: u32,
    apsp_grid: usize,
    apsp_kron: u32,
}

fn sizes(s: DemoSize) -> Sizes {
    match s {
        DemoSize::Small => Sizes {
            grid: 64,
            kron: 10,
            apsp_grid: 12,
            apsp_kron: 6,
        },
        DemoSize::Medium => Sizes {
            grid: 256,
            kron: 14,
            apsp_grid: 20,
            apsp_kron: 8,
        },
        DemoSize::Large => Sizes {
            grid: 1024,
            kron: 18,
            apsp_grid: 32,
            apsp_kron: 9,
        },
    }
}

/// A Graph500-style undirected Kronecker graph with integer weights 1..=100.
fn kron(scale: u32) -> EdgeList {
    let mut g = generate::kronecker(scale, 16, 2);
    g.symmetrize();
    g.assign_weights(WeightSpec::Uniform {
        lo: 1,
        hi: 100,
        seed: 3,
    });
    g
}

fn run_on<B: Frontier>(b: &B, c: &Common, size: DemoSize) -> Res<Vec<Row>> {
    let s = sizes(size);
    let graphs = [
        (
            format!("grid {0}x{0}", s.grid),
            generate::grid(s.grid, s.grid, 1, 100, 1),
            false,
        ),
        (format!("kronecker scale {}", s.kron), kron(s.kron), false),
        (
            format!("grid {0}x{0}", s.apsp_grid),
            generate::grid(s.apsp_grid, s.apsp_grid, 1, 100, 4),
            true,
        ),
        (
            format!("kronecker scale {}", s.apsp_kron),
            kron(s.apsp_kron),
            true,
        ),
    ];
    let bar = if !c.quiet && std::io::stderr().is_terminal() {
        let b = ProgressBar::new(10);
        b.set_style(
            ProgressStyle::with_template("{msg:40} [{bar:30}] {pos}/{len} {elapsed}")
                .expect("valid template"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let mut rows = Vec::new();
    let backend = b.name().split(' ').next().unwrap_or("?").to_string();
    for (name, el, small) in graphs {
        let tg = TestGraph::from_edges(&name, &el);
        let a = el.to_csr::<MinPlus<i32>, u32>()?;
        // The source: the vertex with most out-arcs (a Kronecker graph has isolated vertices).
        let source = (0..tg.n).max_by_key(|&v| a.row_len(v)).unwrap_or(0);
        let row = |algorithm: &str, format: String, time: Duration, rate, check| Row {
            graph: name.clone(),
            algorithm: algorithm.into(),
            backend: backend.clone(),
            format,
            time,
            rate,
            check,
        };
        if !small {
            bar.set_message(format!("{name}: bfs"));
            // One upload: BFS runs on the weighted graph's pattern, delta-stepping on a view.
            let weighted = Graph::new(
                b,
                &a,
                GraphOptions {
                    pull: true,
                    ..Default::default()
                },
            )?;
            let g = weighted.pattern::<BfsSemiring>()?;
            let fmt = g.pull_info().map_or("csr", |i| i.format.name());
            let t = Instant::now();
            let r = bfs(&g, source, &BfsOptions::default())?;
            let time = t.elapsed();
            let arcs = tg.arcs.iter().filter(|x| r.levels[x.0] != u32::MAX).count();
            let check = check_bfs(g.csr(), &r)
                .map(|()| format!("{} reached, depth {}, = queue BFS", r.reached, r.depth));
            rows.push(row(
                "bfs",
                format!("{fmt} pull + csr push"),
                time,
                mteps(arcs, time),
                check,
            ));
            bar.inc(1);

            bar.set_message(format!("{name}: dijkstra oracle"));
            let want = oracle_dijkstra(tg.n, &tg.arcs, source);
            bar.set_message(format!("{name}: bellman-ford"));
            let t = Instant::now();
            let sp = bellman_ford(&weighted, source)?;
            let time = t.elapsed();
            let arcs = tg.arcs.iter().filter(|x| want[x.0].is_some()).count();
            let check = check_shortest_paths(&tg.arcs, &sp, &want)
                .map(|()| format!("{} rounds, = Dijkstra", sp.rounds));
            rows.push(row(
                "sssp bellman-ford",
                "csr push".into(),
                time,
                mteps(arcs, time),
                check,
            ));
            bar.inc(1);

            bar.set_message(format!("{name}: delta-stepping"));
            let g = DeltaGraph::from_graph(weighted.view()?, None)?;
            let t = Instant::now();
            let sp = delta_stepping(&g, source)?;
            let time = t.elapsed();
            let check = check_shortest_paths(&tg.arcs, &sp, &want)
                .map(|()| format!("delta {}, = Dijkstra", g.delta()));
            rows.push(row(
                "sssp delta-stepping",
                "csr push".into(),
                time,
                mteps(arcs, time),
                check,
            ));
            bar.inc(1);
        } else {
            bar.set_message(format!("{name}: apsp"));
            let g = Graph::new(b, &a, GraphOptions::default())?;
            let t = Instant::now();
            let r = apsp(
                &g,
                &ApspOptions {
                    next_hop: true,
                    ..Default::default()
                },
            )?;
            let time = t.elapsed();
            let n = tg.n;
            let ops = 2.0 * (n as f64).powi(3) * r.rounds as f64;
            let check = check_apsp(&tg.arcs, &r)
                .map(|()| format!("{} squarings, = Floyd-Warshall, paths rebuilt", r.rounds));
            let rate = (ops / time.as_secs_f64().max(1e-9) / 1e9, "G(min,+)/s");
            rows.push(row("apsp (next hops)", "dense".into(), time, rate, check));
            bar.inc(1);
        }
    }
    bar.finish_and_clear();
    Ok(rows)
}
