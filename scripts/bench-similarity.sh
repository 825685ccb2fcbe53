#!/bin/bash
# Similarity and edge betweenness on the GPU machine, from a .devbin staged by
# ../shared/tools/gpu-pack (its binary unpacked): the backend suite's checks on the GPU (the
# sampled product `sddmm` in every format of a semiring of each kind, similarity, edge
# betweenness, the registry), compute-sanitizer's memcheck and racecheck on them, then bench rows (GPU and
# CPU backends) on a symmetrised Kronecker 20 and the NY road graph, and NetworkX on the
# 4,096-vertex Kronecker graph (exact edge betweenness, its time per source times the
# sources) and Kronecker 16 (Jaccard of every edge).
#   bash scripts/bench-similarity.sh [ROAD.gr.xz]      (NO_TESTS=1: the bench rows and memcheck only)
cd "$(dirname "$0")/.."
export SEMIGRAPH_REQUIRE_GPU=1 SEMIGRAPH_REQUIRE_NVRTC=1 SEMIGRAPH_DATA=$PWD/.devbin/data
BIN=$PWD/.devbin/bin/semigraph W=/tmp/nsim; mkdir -p $W
[ -f .devbin/tests.tar.xz ] && [ ! -d .devbin/tests ] && tar xJf .devbin/tests.tar.xz -C .devbin
T=$(ls .devbin/tests/gpu_backend-* | head -1)
[ -z "$NO_TESTS" ] && $T similarity edge_betweenness registry csr::plus_times_f32 coo::min_plus_i32 \
  ell::max_min_i64 dia::or_and_bool 2>&1 | grep -E "^test |test result"
if command -v compute-sanitizer > /dev/null; then
  timeout 240 compute-sanitizer --tool memcheck --print-limit 5 $T similarity edge_betweenness \
    csr::plus_times_f32 2>&1 | grep -E "ERROR SUMMARY|test result" | head -4
  timeout 240 compute-sanitizer --tool racecheck --print-limit 5 $T similarity edge_betweenness \
    csr::plus_times_f32 2>&1 | grep -E "ERROR SUMMARY|RACECHECK SUMMARY|test result" | head -4
fi
$BIN generate kronecker --scale 20 --weights unit -o $W/k20.el -q
$BIN convert $W/k20.el --undirected --combine min -o $W/k20u.npz -q
$BIN generate kronecker --scale 12 --weights unit -o $W/k12.el -q
$BIN convert $W/k12.el --undirected --combine min -o $W/k12.mtx -q
$BIN generate kronecker --scale 16 --weights unit -o $W/k16.el -q
$BIN convert $W/k16.el --undirected --combine min -o $W/k16.mtx -q
row() { timeout 150 $BIN bench "$@" --backends gpu,cpu --runs 5 -q 2>&1 | grep -vE '^#|^backend' | cut -c1-120; }
for a in jaccard cosine "edge-bc --sources 4" "bc --sources 4"; do echo "-- bench $a k20 undirected"; row $a $W/k20u.npz; done
for a in "edge-bc --sources 1000000" "bc --sources 1000000" jaccard; do echo "-- bench $a k12"; row $a $W/k12.mtx; done
if [ -n "$1" ]; then
  for a in "edge-bc --sources 4" "bc --sources 4" jaccard; do echo "-- bench $a road"; row $a $1; done
fi
timeout 200 python3 - $W/k12.mtx $W/k16.mtx <<'PY'
import sys, time, scipy.io, networkx as nx
G = nx.from_scipy_sparse_array(scipy.io.mmread(sys.argv[1]).tocsr())
G.remove_edges_from(nx.selfloop_edges(G))
n = len(G)
t = time.perf_counter(); nx.edge_betweenness_centrality(G, k=64, seed=1); eb = (time.perf_counter() - t) / 64 * n
print(f"NetworkX {nx.__version__} on k12 (n={n}, m={G.number_of_edges()}): exact edge betweenness ~{eb:.1f} s (64 sources x n/64)")
H = nx.from_scipy_sparse_array(scipy.io.mmread(sys.argv[2]).tocsr())
H.remove_edges_from(nx.selfloop_edges(H))
t = time.perf_counter(); s = sum(1 for _ in nx.jaccard_coefficient(H, H.edges())); j = time.perf_counter() - t
print(f"NetworkX jaccard_coefficient of every edge of k16 (n={len(H)}, m={H.number_of_edges()}): {j*1000:.0f} ms for {s} pairs")
PY
for a in jaccard; do echo "-- bench $a k16"; row $a $W/k16.mtx; done
