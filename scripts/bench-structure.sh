#!/bin/bash
# Core numbers, strongly connected components, topological order and HITS on the GPU machine,
# from a .devbin staged by ../shared/tools/gpu-pack (its binary unpacked): the backend suite's
# checks on the GPU, then bench rows (GPU and CPU backends) on a directed Kronecker 20 and
# the NY road graph, NetworkX on Kronecker 16, and HITS against torch's power iteration
# (CSR SpMV on the GPU, the same two products and normalization per iteration).
#   bash scripts/bench-structure.sh [ROAD.gr]
cd "$(dirname "$0")/.."
export SEMIGRAPH_REQUIRE_GPU=1 SEMIGRAPH_REQUIRE_NVRTC=1 SEMIGRAPH_DATA=$PWD/.devbin/data
BIN=$PWD/.devbin/bin/semigraph W=/tmp/ns; mkdir -p $W
[ -f .devbin/tests.tar.xz ] && [ ! -d .devbin/tests ] && tar xJf .devbin/tests.tar.xz -C .devbin
$(ls .devbin/tests/gpu_backend-* | head -1) structure hits 2>&1 | grep -E "^test |test result"
$BIN generate kronecker --scale 20 --weights unit -o $W/k20.el -q
$BIN convert $W/k20.el -o $W/k20d.npz -q
$BIN convert $W/k20.el --undirected --combine min -o $W/k20u.npz -q
$BIN generate kronecker --scale 16 --weights unit -o $W/k16.el -q
row() { timeout 120 $BIN bench "$@" --backends gpu,cpu --runs 5 -q 2>&1 | grep -vE '^#|^backend' | cut -c1-110; }
for a in kcore scc hits; do echo "-- bench $a k20 directed"; row $a $W/k20d.npz; done
for a in kcore hits "ktruss --k 5"; do echo "-- bench $a k20 undirected"; row $a $W/k20u.npz; done
if [ -n "$1" ]; then
  for a in kcore scc "ktruss --k 3"; do echo "-- bench $a road"; row $a $1; done
fi
timeout 200 python3 - $W/k20d.npz $W/k20u.npz <<'PY'
import sys, time, numpy as np, scipy.sparse as sp, torch
d = torch.device("cuda")
for path in sys.argv[1:]:
    A = sp.load_npz(path).tocsr(); A.data[:] = 1.0; n = A.shape[0]
    csr = lambda m: torch.sparse_csr_tensor(torch.from_numpy(m.indptr).long(), torch.from_numpy(m.indices).long(),
                                            torch.from_numpy(m.data.astype(np.float64)), size=m.shape, device=d)
    Am, At = csr(A), csr(A.T.tocsr())
    h = torch.full((n,), 1.0 / n, dtype=torch.float64, device=d)
    def step(h):
        a = torch.mv(At, h); nh = torch.mv(Am, a); nh = nh / nh.sum()
        return nh, (nh - h).abs().sum().item()
    for _ in range(3): h, _ = step(h)
    torch.cuda.synchronize(); t = time.perf_counter(); k = 50
    for _ in range(k): h, delta = step(h)
    torch.cuda.synchronize()
    print(f"torch {torch.__version__} HITS on {path.split('/')[-1]} (n={n}, nnz={A.nnz}): {(time.perf_counter()-t)/k*1000:.3f} ms per iteration (two CSR SpMVs, a sum, the change read back)")
PY
timeout 200 python3 - $W/k16.el <<'PY'
import sys, time, networkx as nx
G = nx.read_edgelist(sys.argv[1], nodetype=int, create_using=nx.DiGraph, comments="#", data=False)
G.remove_edges_from(nx.selfloop_edges(G))
U = G.to_undirected()
for name, f in [("core_number", nx.core_number), ("strongly_connected_components",
                lambda G: list(nx.strongly_connected_components(G))), ("hits", nx.hits),
                ("k_truss 5 (undirected)", lambda G: nx.k_truss(U, 5))]:
    t = time.perf_counter(); f(G); print(f"NetworkX {name} on k16 directed (n={len(G)}, m={G.number_of_edges()}): {(time.perf_counter()-t)*1000:.0f} ms")
PY
