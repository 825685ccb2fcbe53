#!/bin/bash
# The centralities on the GPU machine, from a .devbin staged by ../shared/tools/gpu-pack (its
# binary unpacked): the backend suite's centrality checks on the GPU, the CLI's registry test,
# then bench rows against NetworkX (its time per source, times the sources) on a 4,096-vertex
# Kronecker graph, and eigenvector/Katz on Kronecker 20.
#   bash scripts/bench-centralities.sh
cd "$(dirname "$0")/.."
export SEMIGRAPH_REQUIRE_GPU=1 SEMIGRAPH_REQUIRE_NVRTC=1 SEMIGRAPH_DATA=$PWD/.devbin/data
BIN=$PWD/.devbin/bin/semigraph W=/tmp/na; mkdir -p $W
export SEMIGRAPH_BIN=$BIN
[ -f .devbin/tests.tar.xz ] && tar xJf .devbin/tests.tar.xz -C .devbin
$(ls .devbin/tests/gpu_backend-* | head -1) centrality registry 2>&1 | grep -E "^test |test result"
$(ls .devbin/tests/registry-* | head -1) 2>&1 | grep -E "test result"
$BIN generate kronecker --scale 12 --weights unit -o $W/k12.el -q
$BIN convert $W/k12.el --undirected --combine min -o $W/k12.mtx -q
$BIN generate kronecker --scale 20 --weights unit -o $W/k20.el -q
$BIN convert $W/k20.el --undirected --combine min -o $W/k20.npz -q
for a in "bc --sources 1000000" closeness harmonic; do
  echo "-- bench $a k12"; timeout 100 $BIN bench $a $W/k12.mtx --backends gpu,cpu --runs 5 -q 2>&1 | grep -vE '^#|^backend' | cut -c1-100
done
for a in eigenvector "katz --alpha 1e-4"; do
  echo "-- bench $a k20"; timeout 100 $BIN bench $a $W/k20.npz --backends gpu,cpu --runs 5 -q 2>&1 | grep -vE '^#|^backend' | cut -c1-100
done
timeout 150 python3 - $W/k12.mtx <<'PY'
import sys, time, scipy.io, networkx as nx
G = nx.from_scipy_sparse_array(scipy.io.mmread(sys.argv[1]).tocsr())
G.remove_edges_from(nx.selfloop_edges(G))
n = len(G); nodes = list(G)[:64]
t = time.perf_counter(); nx.betweenness_centrality(G, k=64, seed=1); bc = (time.perf_counter() - t) / 64 * n
t = time.perf_counter(); [nx.closeness_centrality(G, u=v) for v in nodes]; cl = (time.perf_counter() - t) / 64 * n
t = time.perf_counter(); nx.eigenvector_centrality(G, max_iter=1000); ev = time.perf_counter() - t
print(f"NetworkX {nx.__version__} on k12 (n={n}, m={G.number_of_edges()}): exact betweenness ~{bc:.1f} s "
      f"(64 sources x n/64), closeness ~{cl:.1f} s (64 vertices x n/64), eigenvector {ev*1000:.0f} ms")
PY
