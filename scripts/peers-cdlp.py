#!/usr/bin/env python3
"""CDLP (LDBC definition, 10 iterations) with SuiteSparse:GraphBLAS (python-graphblas, all cores) plus
NumPy for the per-row arg-max, the algebra semigraph's `cdlp` uses: S = A + A^T (a two-way
neighbour counts twice), per iteration C = S L (L the label matrix) and each row's most frequent
label (ties to the smallest). A peer for `semigraph bench cdlp`, timed on the same graph.
Usage: python3 scripts/peers-cdlp.py SEMIGRAPH_BIN WORK_DIR SCALE [SCALE...]"""
import os, subprocess, sys, time, statistics
import numpy as np, scipy.sparse as sp
import graphblas as gb
gb.init('suitesparse')
BIN, WORK = sys.argv[1:3]
os.makedirs(WORK, exist_ok=True)

def cdlp(S, n, iterations=10):
    labels = np.arange(n, dtype=np.int64)
    for _ in range(iterations):
        L = gb.Matrix.from_coo(np.arange(n), labels, np.ones(n, dtype=np.int64), nrows=n, ncols=n)
        C = S.mxm(L, gb.semiring.plus_times).new()
        indptr, cols, vals = (x.astype(np.int64) for x in C.to_csr())
        rows = np.repeat(np.arange(n), np.diff(indptr))
        order = np.lexsort((cols, -vals, rows))
        r = rows[order]
        first = order[np.r_[0, np.flatnonzero(np.diff(r)) + 1]] if len(r) else order
        new = labels.copy()
        new[rows[first]] = cols[first]
        labels = new
    return labels

for scale in map(int, sys.argv[3:]):
    el = os.path.join(WORK, f'k{scale}.el')
    if not os.path.exists(el):
        subprocess.run([BIN, 'generate', 'kronecker', '--scale', str(scale), '--weights', 'unit', '-q', '-o', el], check=True)
    a = np.fromstring(open(el, 'rb').read().split(b'\n', 1)[1], sep=' ', dtype=np.int64).reshape(-1, 3)
    n = 1 << scale
    A = sp.coo_matrix((np.ones(len(a)), (a[:, 0], a[:, 1])), shape=(n, n)).tocsr()
    A.data[:] = 1; A.setdiag(0); A.eliminate_zeros()
    A = ((A + A.T) > 0).astype(np.int64)  # --undirected: each edge both ways
    S = gb.io.from_scipy_sparse((A + A.T).tocsr())  # a two-way neighbour twice, as LDBC says
    ts = []
    for _ in range(3):
        t = time.perf_counter(); lab = cdlp(S, n); ts.append((time.perf_counter() - t) * 1e3)
    print(f'GraphBLAS+NumPy CDLP 10 it (all cores) kron{scale} {statistics.median(ts):10.1f} ms  '
          f'{len(np.unique(lab))} labels', flush=True)
