#!/bin/bash
# Communities and combinatorial structure against their peers, in one run: Louvain against
# NetworkX's louvain_communities (best modularity of three seeds, its time per seed), the
# minimum spanning forest against SciPy's minimum_spanning_tree and NetworkX's on a road
# graph, the maximum flow against NetworkX's (preflow-push) between the road graph's first and
# last vertex, and the independent set, coloring and matching next to one BFS on a Kronecker
# graph.
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
for a in louvain leiden mis coloring matching msf; do bench $a "$W/k$SCALE.mtx"; done
bench bfs "$W/k$SCALE.mtx" -s 1
bench louvain "$W/k$NXSCALE.mtx"
timeout 900 python3 - "$BIN" "$W/k$NXSCALE.mtx" "$ROAD" <<'PY'
import json, lzma, subprocess, sys, time
import networkx as nx, numpy as np, scipy.io, scipy.sparse, scipy.sparse.csgraph as csg

bin_, kron, road = sys.argv[1:4]

def ours(algo, path, *extra):
    out = subprocess.run([bin_, algo, path, "--backend", "cpu", "-q", "--json", *extra],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)

# Louvain: modularity of ours (as NetworkX computes it, self loops kept as semigraph reads
# them) and NetworkX's best of 3 seeds.
A = scipy.io.mmread(kron).tocsr()
G = nx.from_scipy_sparse_array(A)
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
      f"(NetworkX's modularity of it {q_check:.4f}) in {r['time']['run_ms']:.0f} ms (CPU, one "
      f"shot); NetworkX {nx.__version__} best of 3 Q={best:.4f}, {np.median(times):.2f} s a seed")

# The road graph with seeded weights 1..1000, one per edge, as an edge list of both arcs.
rng = np.random.default_rng(1)
edges = []
with lzma.open(road, "rt") as f:
    for line in f:
        p = line.split()
        if len(p) == 2 and p[0].isdigit():
            edges.append((int(p[0]), int(p[1])))
n = max(max(e) for e in edges)
w = rng.integers(1, 1001, len(edges)).astype(float)
weighted = kron.rsplit("/", 1)[0] + "/road.el"
with open(weighted, "w") as f:
    for (u, v), x in zip(edges, w):
        f.write(f"{u} {v} {x:.0f}\n{v} {u} {x:.0f}\n")
u = np.array([e[0] for e in edges]) - 1
v = np.array([e[1] for e in edges]) - 1
M = scipy.sparse.csr_matrix((np.r_[w, w], (np.r_[u, v], np.r_[v, u])), shape=(n, n))

# Minimum spanning forest: SciPy (one core) and NetworkX.
t = time.perf_counter(); T = csg.minimum_spanning_tree(M); ts = time.perf_counter() - t
r = ours("msf", weighted)
H = nx.Graph(); H.add_weighted_edges_from(zip(u.tolist(), v.tolist(), w.tolist()))
t = time.perf_counter(); wn = sum(d["weight"] for _, _, d in nx.minimum_spanning_edges(H, data=True)); tn = time.perf_counter() - t
print(f"MSF {road.split('/')[-1]} (n={n}, edges={len(edges)}, weights 1..1000): semigraph weight "
      f"{r['weight']:.0f} in {r['time']['run_ms']:.1f} ms (CPU, one shot); SciPy {T.sum():.0f} in "
      f"{ts*1000:.1f} ms; NetworkX {wn:.0f} in {tn*1000:.0f} ms")

# Maximum flow from vertex 1 to vertex n, each edge two arcs of its weight as capacity.
r = ours("maxflow", weighted, "-s", "1", "-t", str(n))
D = nx.DiGraph()
D.add_weighted_edges_from(((a + 1, b + 1, x) for a, b, x in zip(u.tolist(), v.tolist(), w.tolist())), weight="capacity")
D.add_weighted_edges_from(((b + 1, a + 1, x) for a, b, x in zip(u.tolist(), v.tolist(), w.tolist())), weight="capacity")
t = time.perf_counter(); fv = nx.maximum_flow_value(D, 1, n); tf = time.perf_counter() - t
print(f"max flow {road.split('/')[-1]} 1 -> {n}: semigraph {r['flow']:.0f} in {r['time']['run_ms']:.0f} ms "
      f"({r['rounds']} rounds, CPU, one shot); NetworkX preflow-push {fv:.0f} in {tf*1000:.0f} ms")
PY
bench msf "$W/road.el"
bench maxflow "$W/road.el"
