"""Times semigraph from Python against SciPy on the same graphs, in one process.

    python3 python/bench/bench_python.py GRAPH[:SOURCE] ... [--backend gpu] [--runs 11]

GRAPH is any file semigraph.read_graph reads, or a SciPy .npz (scipy.sparse.load_npz);
SOURCE a 0-based vertex (default 0). For each graph: SciPy's BFS (breadth_first_order with
predecessors) and Dijkstra, semigraph one-shot (the SciPy matrix's pattern uploaded in the
call; on --backend and on the CPU backend) and on a warm Graph (uploaded once; on the GPU also
with device=True, the results left there), PageRank and WCC. Medians of --runs runs after one warm-up;
the first call of the process (which opens the GPU and compiles kernels) is reported apart.
Prints a table and writes JSON to --json FILE if given.
"""

import argparse
import json
import statistics
import sys
import time

import numpy as np
import scipy.sparse as sp
import scipy.sparse.csgraph as csg

import semigraph


def timed(f, runs):
    f()  # warm-up
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts), min(ts)


def load(path):
    if path.endswith(".npz"):
        try:
            return sp.load_npz(path).tocsr()
        except Exception:
            pass
    return semigraph.read_graph(path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    first = None
    for spec in args.graphs:
        path, _, s = spec.partition(":")
        source = int(s or 0)
        # Canonical float64: SciPy's csgraph sums the parallel entries of an integer matrix
        # (and keeps the smallest of a float64 one); summed here, both see one graph.
        a = load(path).tocsr()
        a.sum_duplicates()
        a = a.astype(np.float64)
        n, m = a.shape[0], a.nnz
        t = time.perf_counter()
        g = semigraph.Graph(a, backend=args.backend)
        build = time.perf_counter() - t
        if first is None:
            t = time.perf_counter()
            g.bfs(source)
            first = time.perf_counter() - t
        row = {"graph": path, "n": n, "arcs": m, "backend": g.backend, "graph_build_s": build}
        # Results agree before anything is timed.
        levels, _ = g.bfs(source)
        order = csg.breadth_first_order(a, source, directed=True, return_predecessors=False)
        assert len(order) == (levels >= 0).sum(), "BFS reached a different set than SciPy"
        dist, _ = g.sssp(source)
        want = csg.dijkstra(a, indices=source)
        assert np.allclose(dist, want), "SSSP differs from SciPy"
        cases = {
            "bfs scipy breadth_first_order": lambda: csg.breadth_first_order(
                a, source, directed=True, return_predecessors=True
            ),
            "bfs semigraph one-shot": lambda: semigraph.bfs(a, source, backend=args.backend),
            "bfs semigraph one-shot, cpu": lambda: semigraph.bfs(a, source, backend="cpu"),
            "bfs semigraph warm Graph": lambda: g.bfs(source),
            "sssp scipy dijkstra": lambda: csg.dijkstra(
                a, indices=source, return_predecessors=True
            ),
            "sssp semigraph warm Graph": lambda: g.sssp(source),
            "wcc scipy connected_components": lambda: csg.connected_components(
                a, directed=True, connection="weak"
            ),
            "wcc semigraph warm Graph": lambda: g.wcc(),
            "pagerank semigraph warm Graph (20 it.)": lambda: g.pagerank(
                iterations=20, tolerance=None
            ),
        }
        if g.backend == "gpu":
            cases["bfs semigraph warm Graph, device=True"] = lambda: g.bfs(source, device=True)
        for name, f in cases.items():
            med, lo = timed(f, args.runs)
            row[name] = {"median_ms": med * 1e3, "min_ms": lo * 1e3}
        rows.append(row)
    print(f"# semigraph {semigraph.__version__}, gpu: {semigraph.gpu_status()}")
    print(f"# first call of the process (GPU open, kernels): {first * 1e3:.1f} ms")
    for r in rows:
        print(f"\n## {r['graph']}: {r['n']} vertices, {r['arcs']} arcs, backend {r['backend']}, "
              f"Graph() {r['graph_build_s'] * 1e3:.2f} ms")
        print(f"{'case':44} {'median ms':>10} {'min ms':>10}")
        for k, v in r.items():
            if isinstance(v, dict):
                print(f"{k:44} {v['median_ms']:10.3f} {v['min_ms']:10.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"first_call_s": first, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
