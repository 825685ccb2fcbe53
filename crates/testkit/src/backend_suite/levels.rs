//! [`Frontier::queue_levels`] against a host breadth-first search: random graphs from one or
//! several seeds (repeats and none included), a long path, a grid, layers whose every level
//! is wide, and stars whose one level is wider still; and a few small graphs that still take
//! every path, for tools too slow for the rest (compute-sanitizer's racecheck).

use semigraph_algos::{Frontier, LevelsFound, Parents, arcs_to_csr};
use semigraph_formats::generate::Rng;
use semigraph_formats::{ConvertOptions, Csr, Format};
use semigraph_semiring::OrAnd;

/// What every position but the seeds' holds at the call (the contract asks for `u32::MAX`):
/// positions not reached must keep it.
const UNTOUCHED: u32 = u32::MAX;

/// The seeds' values (ignored, and no level): a queue that still holds them was not run.
const MARK: u32 = u32::MAX - 1;

/// The fewest arcs from any seed to each vertex (`UNTOUCHED` where none reaches).
fn host_levels(a: &Csr<OrAnd>, seeds: &[u32]) -> Vec<u32> {
    let mut lv = vec![UNTOUCHED; a.nrows()];
    let mut queue = Vec::new();
    for &s in seeds {
        if lv[s as usize] == UNTOUCHED {
            lv[s as usize] = 0;
            queue.push(s);
        }
    }
    let mut e = 0;
    while e < queue.len() {
        let k = queue[e] as usize;
        e += 1;
        for &j in &a.col_idx()[a.row_ptr()[k] as usize..a.row_ptr()[k + 1] as usize] {
            if lv[j as usize] == UNTOUCHED {
                lv[j as usize] = lv[k] + 1;
                queue.push(j);
            }
        }
    }
    lv
}

/// The parent of each vertex under `lv` (the host's levels): the smallest vertex one level up
/// with an arc to it; a seed its own; `u32::MAX` where not reached.
fn host_parents(a: &Csr<OrAnd>, seeds: &[u32], lv: &[u32]) -> Vec<u32> {
    let mut p = vec![u32::MAX; a.nrows()];
    for k in 0..a.nrows() {
        if lv[k] == UNTOUCHED {
            continue;
        }
        for &j in &a.col_idx()[a.row_ptr()[k] as usize..a.row_ptr()[k + 1] as usize] {
            let j = j as usize;
            if lv[j] == lv[k] + 1 {
                p[j] = p[j].min(k as u32);
            }
        }
    }
    for &s in seeds {
        p[s as usize] = s;
    }
    p
}

/// One graph from `seeds`: the backend's levels, reached count and depth equal the host's,
/// every position not reached keeps its value; a backend may decline (`None`) only where some
/// level has more than 1,024 vertices (the fewest a GPU's one block takes). Asked for the
/// parents too, and where the backend says it wrote them, they equal the host's.
fn check_one<B: Frontier>(b: &B, name: &str, a: &Csr<OrAnd>, seeds: &[u32]) -> Result<(), String> {
    check_levels(b, name, a, seeds, false)?;
    check_levels(b, &format!("{name}, with parents"), a, seeds, true)
}

fn check_levels<B: Frontier>(
    b: &B,
    name: &str,
    a: &Csr<OrAnd>,
    seeds: &[u32],
    with_parents: bool,
) -> Result<(), String> {
    let n = a.nrows();
    let want = host_levels(a, seeds);
    let m = b
        .matrix(a, Format::Csr, &ConvertOptions::default())
        .map_err(|e| format!("{name}: matrix: {e}"))?;
    let mut q = b.queue::<Parents>(n).map_err(|e| e.to_string())?;
    b.queue_set(&mut q, seeds, &vec![MARK; seeds.len()], 0)
        .map_err(|e| e.to_string())?;
    let mut lv = b
        .dense_filled::<Parents>(n, 1, UNTOUCHED)
        .map_err(|e| e.to_string())?;
    // Values no parent has, where the backend writes none.
    let mut parents = b
        .dense_filled::<Parents>(n, 1, MARK)
        .map_err(|e| e.to_string())?;
    let got = b
        .queue_levels(&m, &mut q, &mut lv, with_parents.then_some(&mut parents))
        .map_err(|e| format!("{name}: queue_levels: {e}"))?;
    let reached = want.iter().filter(|&&l| l != UNTOUCHED).count();
    let depth = want
        .iter()
        .filter(|&&l| l != UNTOUCHED)
        .max()
        .copied()
        .unwrap_or(0);
    let mut widths = vec![0usize; depth as usize + 1];
    want.iter()
        .filter(|&&l| l != UNTOUCHED)
        .for_each(|&l| widths[l as usize] += 1);
    let widest = widths.iter().copied().max().unwrap_or(0);
    let Some(LevelsFound {
        reached: r,
        depth: d,
        parents: wrote,
    }) = got
    else {
        return check_stopped(b, name, &q, &lv, &want, widest, seeds.is_empty());
    };
    if (r, d) != (reached, depth) {
        return Err(format!(
            "{name}: reached {r}, depth {d}; want {reached}, {depth}"
        ));
    }
    let g = b.read_dense(&lv).map_err(|e| e.to_string())?;
    if let Some(v) = (0..n).find(|&v| g[v] != want[v]) {
        return Err(format!(
            "{name}: vertex {v} at level {:#x}, want {:#x}",
            g[v], want[v]
        ));
    }
    if wrote && !with_parents {
        return Err(format!("{name}: says it wrote parents nobody asked for"));
    }
    let got = b.read_dense(&parents).map_err(|e| e.to_string())?;
    if !wrote {
        return match got.iter().position(|&p| p != MARK) {
            Some(v) => Err(format!(
                "{name}: wrote parent {} of {v} but says it did not",
                got[v]
            )),
            None => Ok(()),
        };
    }
    let want = host_parents(a, seeds, &want);
    match (0..n).find(|&v| got[v] != want[v]) {
        Some(v) => Err(format!(
            "{name}: vertex {v} has parent {:#x}, want {:#x}",
            got[v], want[v]
        )),
        None => Ok(()),
    }
}

/// A stop ([`Frontier::queue_levels`] returned `None`): declined without a run (the seeds
/// still queued with their values), or the frontier handed back (one level `L`, exactly the
/// vertices at `L`; every vertex up to `L` at its level, the others untouched), or nothing to
/// go on from, which only a level of more than 1,024 vertices may cause.
fn check_stopped<B: Frontier>(
    b: &B,
    name: &str,
    q: &B::Queue<Parents>,
    lv: &B::Dense<Parents>,
    want: &[u32],
    widest: usize,
    no_seeds: bool,
) -> Result<(), String> {
    let (idx, vals) = b.queue_read(q).map_err(|e| e.to_string())?;
    // No seeds: an empty queue is also the seeds as they were.
    if idx.is_empty() && !no_seeds {
        return match widest > 1024 {
            true => Ok(()),
            false => Err(format!(
                "{name}: stopped with nothing to go on from, though no level has more than \
                 {widest} vertices"
            )),
        };
    }
    if idx.is_empty() || vals.iter().all(|&v| v == MARK) {
        return Ok(());
    }
    let level = vals[0];
    let at: Vec<u32> = (0..want.len() as u32)
        .filter(|&v| want[v as usize] == level)
        .collect();
    if vals.iter().any(|&v| v != level) || idx != at {
        return Err(format!(
            "{name}: handed back {} entries of levels {:?}..; want the {} vertices at level {level}",
            idx.len(),
            vals.iter().take(3).collect::<Vec<_>>(),
            at.len()
        ));
    }
    let g = b.read_dense(lv).map_err(|e| e.to_string())?;
    for (v, (&got, &w)) in g.iter().zip(want).enumerate() {
        let expect = if w != UNTOUCHED && w <= level {
            w
        } else {
            UNTOUCHED
        };
        if got != expect {
            return Err(format!(
                "{name}: stopped at level {level}, vertex {v} at {got:#x}, want {expect:#x}"
            ));
        }
    }
    Ok(())
}

/// A grid of `side x side` vertices, each joined to its neighbours both ways.
fn grid(side: u32) -> Result<Csr<OrAnd>, String> {
    let mut arcs = Vec::new();
    for r in 0..side {
        for c in 0..side {
            let v = r * side + c;
            if c + 1 < side {
                arcs.extend([(v, v + 1, true), (v + 1, v, true)]);
            }
            if r + 1 < side {
                arcs.extend([(v, v + side, true), (v + side, v, true)]);
            }
        }
    }
    arcs_to_csr::<OrAnd>((side * side) as usize, &arcs).map_err(|e| e.to_string())
}

/// [`Frontier::queue_levels`] on every graph of this file, each against a host BFS: the same
/// levels, counts and untouched positions, or a stop that keeps its contract.
pub fn check_queue_levels<B: Frontier>(b: &B) -> Result<(), String> {
    let rng = Rng::new(4242);
    for (g, &(n, per_row)) in [
        (1, 1),
        (2, 2),
        (60, 1),
        (60, 3),
        (700, 2),
        (3000, 3),
        (3000, 6),
    ]
    .iter()
    .enumerate()
    {
        let a = super::random_csr::<OrAnd>(n, n, per_row, 700 + g as u64);
        let k = g as u64 * 10;
        let pick = |i: u64| rng.below(k + i, n as u64) as u32;
        let one = [pick(0)];
        // A repeat among them; no more entries than vertices (a queue holds a vertex once).
        let several = [pick(1), pick(2), pick(1), pick(3)];
        let several = &several[..several.len().min(n)];
        for (label, seeds) in [("one seed", &one[..]), ("seeds", several), ("none", &[])] {
            check_one(
                b,
                &format!("random n {n}, {per_row} a row, {label}"),
                &a,
                seeds,
            )?;
        }
    }
    let path: Vec<(u32, u32, bool)> = (0..19_999).map(|i| (i, i + 1, true)).collect();
    let path = arcs_to_csr::<OrAnd>(20_000, &path).map_err(|e| e.to_string())?;
    check_one(b, "path of 20,000", &path, &[0])?;
    check_one(b, "path of 20,000 from its middle", &path, &[10_000])?;
    let side = 150u32;
    check_one(b, "grid 150 x 150", &grid(side)?, &[0, side * side - 1])?;
    // A grid of more vertices than the CPU's one-thread loop takes (32,768): its team.
    let side = 200u32;
    check_one(b, "grid 200 x 200", &grid(side)?, &[side / 2])?;
    // From the whole first layer, every level 1,500 wide (a GPU's block hands this back).
    let (wide, first) = layers(100, 1500)?;
    check_one(b, "100 layers of 1,500", &wide, &first)?;
    check_one(b, "100 layers of 1,500 from one vertex", &wide, &[0])?;
    for leaves in [1000u32, 5000, 40_000] {
        check_one(b, &format!("star of {leaves}"), &star(leaves)?, &[0])?;
    }
    let (a, first) = wide_narrow_wide(2000, 80, 200, 30, 10_000)?;
    check_one(b, "wide, narrow, wide again, a burst, narrow", &a, &first)?;
    Ok(())
}

/// [`Frontier::queue_levels`] on a few small graphs that still take each of a GPU's paths, for
/// tools too slow for [`check_queue_levels`]'s graphs (compute-sanitizer's racecheck): one
/// seed and several, rows of more than four arcs, a level of 1,000 vertices, and levels wide
/// enough after the first 64 that the one block hands them over to the whole GPU.
pub fn check_queue_levels_small<B: Frontier>(b: &B) -> Result<(), String> {
    let a = super::random_csr::<OrAnd>(700, 700, 6, 706);
    check_one(b, "random n 700, 6 a row", &a, &[3])?;
    check_one(b, "random n 700, 6 a row, seeds", &a, &[5, 600, 5, 42])?;
    check_one(b, "star of 1000", &star(1000)?, &[0])?;
    let (wide, first) = layers(70, 1500)?;
    check_one(b, "70 layers of 1,500", &wide, &first)?;
    let (a, first) = wide_narrow_wide(1100, 66, 30, 3, 9000)?;
    check_one(
        b,
        "wide, narrow, wide again, a burst, narrow (small)",
        &a,
        &first,
    )
}

/// Levels that widen, narrow and widen again (a GPU's one block hands them to the whole GPU,
/// which hands narrow ones back, and so on): `count` layers of `width` vertices (as
/// [`layers`]), every vertex of the last joined to a path of `path` vertices, whose end is
/// joined to every vertex of `again` more such layers; their last to a path of 100 vertices,
/// whose end has `burst` leaves (more than a GPU block's queues hold), each joined to a path
/// of 50. Returns the graph and the first layer's vertices.
fn wide_narrow_wide(
    width: u32,
    count: u32,
    path: u32,
    again: u32,
    burst: u32,
) -> Result<(Csr<OrAnd>, Vec<u32>), String> {
    let mut arcs = Vec::new();
    let mut next = 0u32;
    // `k` layers from vertex `next` on: their first vertex.
    let layers = |arcs: &mut Vec<(u32, u32, bool)>, next: &mut u32, k: u32| {
        let first = *next;
        for l in 0..k - 1 {
            for i in 0..width {
                let v = first + l * width + i;
                let to = first + (l + 1) * width;
                arcs.extend([(v, to + i, true), (v, to + (i + 1) % width, true)]);
            }
        }
        *next += k * width;
        first
    };
    let chain = |arcs: &mut Vec<(u32, u32, bool)>, next: &mut u32, k: u32| {
        let first = *next;
        arcs.extend((first..first + k - 1).map(|v| (v, v + 1, true)));
        *next += k;
        first
    };
    let l0 = layers(&mut arcs, &mut next, count);
    let last = l0 + (count - 1) * width;
    let p = chain(&mut arcs, &mut next, path);
    arcs.extend((last..last + width).map(|v| (v, p, true)));
    let l1 = layers(&mut arcs, &mut next, again);
    arcs.extend((l1..l1 + width).map(|v| (p + path - 1, v, true)));
    let last = l1 + (again - 1) * width;
    let q = chain(&mut arcs, &mut next, 100);
    arcs.extend((last..last + width).map(|v| (v, q, true)));
    let leaves = next;
    next += burst;
    arcs.extend((leaves..leaves + burst).map(|v| (q + 99, v, true)));
    let f = chain(&mut arcs, &mut next, 50);
    arcs.extend((leaves..leaves + burst).map(|v| (v, f, true)));
    let a = arcs_to_csr::<OrAnd>(next as usize, &arcs).map_err(|e| e.to_string())?;
    Ok((a, (0..width).collect()))
}

/// `count` layers of `width` vertices, vertex `i` of a layer joined to `i` and `i + 1` (mod
/// `width`) of the next, and the first layer's vertices.
fn layers(count: u32, width: u32) -> Result<(Csr<OrAnd>, Vec<u32>), String> {
    let mut arcs = Vec::new();
    for l in 0..count - 1 {
        for i in 0..width {
            let v = l * width + i;
            arcs.extend([
                (v, v + width, true),
                (v, (l + 1) * width + (i + 1) % width, true),
            ]);
        }
    }
    let a = arcs_to_csr::<OrAnd>((count * width) as usize, &arcs).map_err(|e| e.to_string())?;
    Ok((a, (0..width).collect()))
}

/// A star of `leaves` leaves around vertex 0, the leaves also joined in a ring.
fn star(leaves: u32) -> Result<Csr<OrAnd>, String> {
    let arcs: Vec<(u32, u32, bool)> = (1..=leaves)
        .flat_map(|v| [(0, v, true), (v, (v % leaves) + 1, true)])
        .collect();
    arcs_to_csr::<OrAnd>(leaves as usize + 1, &arcs).map_err(|e| e.to_string())
}
