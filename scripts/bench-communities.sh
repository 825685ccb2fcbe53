#!/bin/bash
# Communities and combinatorial structure against their peers, in one run: Louvain against
# NetworkX's louvain_communities (best modularity of three seeds, its time per seed), the
# minimum spanning forest against SciPy's minimum_spanning_tree and NetworkX's on a road
# graph, and the independent set, coloring and matching next to one BFS on a Kronecker graph.
#   bash scripts/bench-communities.sh [ROAD.gr.xz]
# Environment: BIN (default .devbin/bin/semigraph, else target/release/semigraph), BACKENDS
# (default gpu,cpu where a GPU answers, else cpu), SCALE (the Kronecker graph, default 16),
# NXSCALE (the largest Kronecker graph NetworkX's Louvain runs on, default 14).
cd "$(dirname "$0")/.."
BIN=${BIN:-$PWD/.devbin/bin/semigraph}
[ -x "$BIN" ] || BIN=$PWD/target/release/semigraph
ROAD=${1:-data/dimacs9-usa-road-pace16/BAY.gr.xz}
SCALE=${SCALE:-16} NXSCALE=${NXSCALE:-14}
if [ -z "$BACKENDS" ]; then
  BACKENDS=cpu
  "$BIN" bfs "$ROAD" -s 1 --backend gpu -q > /dev/null 2>&1 && BACKENDS=gpu,cpu
fi
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
echo "# $("$BIN" --version 2>/dev/null), backends $BACKENDS, $(nproc) cores"
for s in $NXSCALE $SCALE; do
  "$BIN" generate kronecker --scale "$s" --weights unit -o "$W/k$s.el" -q
  "$BIN" convert "$W/k$s.el" --undirected --combine min -o "$W/k$s.mtx" -q
done
bench() { # name file args...
  local a=$1 f=$2; shift 2
  echo "-- bench $a $(basename "$f") $*"
  timeout 300 "$BIN" bench "$a" "$f" --backends "$BACKENDS" --runs 3 -q "$@" 2>&1 \
    | grep -vE '^#|^backend' | cut -c1-110
}
for a in louvain mis coloring matching msf; do bench $a "$W/k$SCALE.mtx"; done
bench bfs "$W/k$SCALE.mtx" -s 0
bench louvain "$W/k$NXSCALE.mtx"
bench msf "$ROAD"
timeout 900 python3 - "$BIN" "$W/k$NXSCALE.mtx" "$ROAD" <<'PY'
import json, lzma, subprocess, sys, time
import networkx as nx, numpy as np, scipy.io, scipy.sparse, scipy.sparse.csgraph as csg

bin_, kron, road = sys.argv[1:4]

def ours(algo, path, *extra):
    out = subprocess.run([bin_, algo, path, "--backend", "cpu", "-q", "--json", *extra],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)

# Louvain: modularity of ours (as NetworkX computes it) and NetworkX's best of 3 seeds.
A = scipy.io.mmread(kron).tocsr()
G = nx.from_scipy_sparse_array(A)
G.remove_edges_from(list(nx.selfloop_edges(G)))
r = ours("louvain", kron)
comms = {}
for v in r["vertices"]:  # Matrix Market ids count from 1
    comms.setdefault(v["value"], set()).add(v["id"] - 1)
q_ours, q_check = r["modularity"], nx.community.modularity(G, list(comms.values()), weight=None)
best, times = -1.0, []
for seed in range(3):
    t = time.perf_counter()
    c = nx.community.louvain_communities(G, weight=None, seed=seed)
    times.append(time.perf_counter() - t)
    best = max(best, nx.community.modularity(G, c, weight=None))
print(f"Louvain {kron.split('/')[-1]} (n={len(G)}, m={G.number_of_edges()}): semigraph Q={q_ours:.4f} "
      f"(NetworkX's modularity of it {q_check:.4f}) "
      f"in {r['time']['run_ms']:.0f} ms (CPU, one shot); NetworkX {nx.__version__} best of 3 "
      f"Q={best:.4f}, {np.median(times):.2f} s a seed")

# Minimum spanning forest of the road graph: SciPy (one core) and NetworkX.
rows, cols, w = [], [], []
with lzma.open(road, "rt") as f:
    for line in f:
        if line.startswith("a "):
            _, u, v, x = line.split()
            rows.append(int(u) - 1); cols.append(int(v) - 1); w.append(float(x))
n = max(max(rows), max(cols)) + 1
M = scipy.sparse.csr_matrix((w, (rows, cols)), shape=(n, n))
t = time.perf_counter(); T = csg.minimum_spanning_tree(M); ts = time.perf_counter() - t
r = ours("msf", road)
H = nx.Graph(); H.add_weighted_edges_from(zip(rows, cols, w))
t = time.perf_counter(); wn = sum(d["weight"] for _, _, d in nx.minimum_spanning_edges(H, data=True)); tn = time.perf_counter() - t
print(f"MSF {road.split('/')[-1]} (n={n}, arcs={len(w)}): semigraph weight {r['weight']:.0f} in "
      f"{r['time']['run_ms']:.1f} ms (CPU); SciPy {T.sum():.0f} in {ts*1000:.1f} ms; "
      f"NetworkX {wn:.0f} in {tn*1000:.0f} ms")
PY
