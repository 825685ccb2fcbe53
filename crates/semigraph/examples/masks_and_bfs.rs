//! Masks and accumulation, by writing BFS by hand from `Backend` calls, and checking it against
//! the library's `bfs`, its multi-source form `bfs_multi` (one SpMM per level) and
//! `bfs_resident` (results left on the backend).
//!
//! `cargo run --release -p semigraph --example masks_and_bfs [FILE]` (default: the
//! repository's rome99 road graph, or the one under `$SEMIGRAPH_DATA`); runs on the GPU where one can be opened, else on the CPU.

use std::path::PathBuf;

use semigraph::algos::Parents;
use semigraph::prelude::*;

/// Levels of a BFS from `s`, written as linear algebra:
/// - `t<!p> = A^T (min.secondi) f`: each unvisited vertex (the mask *skips* the vertices that
///   have a parent) gets its smallest-id in-neighbour in the frontier `f`;
/// - `p (+)= t` through `improve_dense` (min keeps the parents found earlier), which also says
///   how many vertices were reached;
/// - `levels<t> = level`: the mask *keeps* exactly the vertices found in this level.
fn bfs_by_hand<B: Frontier>(
    g: &Graph<'_, B, BfsSemiring>,
    s: usize,
) -> semigraph::algos::Result<Vec<u32>> {
    let (b, n) = (g.backend(), g.n());
    let at = g.require_pull("a BFS by hand")?;
    let zero = BfsSemiring::zero();
    let mut p = b.unit::<BfsSemiring>(n, s, s as u32)?;
    let mut f = b.unit::<BfsSemiring>(n, s, s as u32)?;
    let mut t = b.dense_filled::<BfsSemiring>(n, 1, zero)?;
    let mut levels = b.unit::<Parents>(n, s, 0)?;
    for level in 1.. {
        b.mxm(&mut t, b.skip(&p), Accum::Replace, at, &f)?;
        if b.improve_dense(&mut p, &t)? == 0 {
            break;
        }
        b.apply(&mut levels, b.keep(&t), UnaryOp::Fill(level))?;
        std::mem::swap(&mut f, &mut t);
        b.apply(&mut t, Mask::All, UnaryOp::Fill(zero))?; // the next output starts empty
    }
    b.read_dense(&levels)
}

/// Walks of one or two arcs from `s` with plus-times on the pattern: `y = A^T x`, then `y (+)= A^T y`
/// (`Accum::Add` adds the product into what `y` holds).
fn short_paths<B: Frontier>(
    b: &B,
    a: &Csr<PlusTimes<f64>>,
    s: usize,
) -> semigraph::algos::Result<f64> {
    let n = a.nrows();
    let g = Graph::new(
        b,
        a,
        GraphOptions {
            pull: true,
            ..Default::default()
        },
    )?;
    let at = g.require_pull("path counts")?;
    let x = b.unit::<PlusTimes<f64>>(n, s, 1.0)?;
    let mut y = b.dense_filled::<PlusTimes<f64>>(n, 1, 0.0)?;
    b.mxm(&mut y, Mask::All, Accum::Replace, at, &x)?;
    let y1 = b.read_dense(&y)?;
    let one_arc = b.dense::<PlusTimes<f64>>(n, 1, &y1)?;
    b.mxm(&mut y, Mask::All, Accum::Add, at, &one_arc)?;
    Ok(b.read_dense(&y)?.iter().sum())
}

fn run<B: Frontier>(b: &B, file: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    let el = read_graph(file, &ReadOptions::default())?;
    let a: Csr<BfsSemiring> = el.to_csr()?;
    let g = Graph::new(
        b,
        &a,
        GraphOptions {
            pull: true,
            ..Default::default()
        },
    )?;
    let sources = [0, 1, a.nrows() / 2, a.nrows() - 1];

    // The hand-written BFS equals the library's, from every source.
    let mut by_hand = Vec::new();
    for &s in &sources {
        let lib = bfs(&g, s, &BfsOptions::default())?;
        let mine = bfs_by_hand(&g, s)?;
        assert_eq!(mine, lib.levels, "levels from {s}");
        by_hand.push(mine);
    }
    // All sources at once: one SpMM per level over an n x 4 block.
    let multi = bfs_multi(&g, &sources)?;
    for (r, mine) in multi.iter().zip(&by_hand) {
        assert_eq!(&r.levels, mine, "multi-source levels from {}", r.source);
    }
    // Results left on the backend: only what is read comes back.
    let resident = bfs_resident(&g, sources[0], &BfsOptions::default())?;
    println!(
        "{} ({}): BFS by hand = bfs = bfs_multi from {} sources; from vertex {}: {} reached, depth {}",
        file.display(),
        b.name(),
        sources.len(),
        el.vertex_label(sources[0]),
        resident.reached,
        resident.depth,
    );
    assert_eq!(resident.read(b)?.levels, by_hand[0]);

    // The pattern (every arc worth one) counts walks.
    let w = a.pattern::<PlusTimes<f64>>();
    println!(
        "walks of one or two arcs out of vertex {}: {}",
        el.vertex_label(sources[0]),
        short_paths(b, &w, sources[0])?
    );
    Ok(())
}

/// The repository's rome99 graph: under `$SEMIGRAPH_DATA` when set (compressed or not), else
/// beside the sources.
fn rome99() -> PathBuf {
    let data = std::env::var_os("SEMIGRAPH_DATA").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data"),
        PathBuf::from,
    );
    let xz = data.join("dimacs9-rome99/rome99.gr.xz");
    if xz.exists() {
        xz
    } else {
        data.join("dimacs9-rome99/rome99.gr")
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Options (`--...`, such as a test runner's) are ignored.
    let file = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .map_or_else(rome99, PathBuf::from);
    match GpuBackend::new() {
        Ok(gpu) => run(&gpu, &file),
        Err(e) => {
            println!("GPU: not run ({e}); on the CPU");
            run(&CpuBackend::new(), &file)
        }
    }
}
