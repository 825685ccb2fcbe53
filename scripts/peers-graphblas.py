#!/usr/bin/env python3
"""SuiteSparse:GraphBLAS (python-graphblas, all cores) on a graph file SciPy reads (semigraph's
`.npz`), symmetrised as `--undirected` does: PageRank (20 iterations, as peers-graphalytics.py),
WCC by min-label propagation, triangles L.L^T<L>, and LCC by LAGraph's algebra (LAGraph_lcc:
C = A + A^T, triangles at each vertex = row sums of (C A^T) masked by C, plus_times, dot product).
Medians and minima of 3 runs (2 for tc and lcc).
Usage: python3 scripts/peers-graphblas.py FILE.npz [pr,wcc,tc,lcc]"""
import sys, time, statistics, numpy as np, scipy.sparse as sp
import graphblas as gb; gb.init('suitesparse')
f = sys.argv[1]; ks = (sys.argv[2] if len(sys.argv) > 2 else 'pr,wcc,tc,lcc').split(',')
A = sp.load_npz(f).tocsr(); A = ((A + A.T) > 0).astype(np.float64); A.setdiag(0); A.eliminate_zeros(); A = A.tocsr()
n = A.shape[0]; print(f'# {f}: n={n} arcs={A.nnz} threads={gb.ss.config["nthreads"]}', flush=True)
def med(fn, reps=3):
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); fn(); ts.append((time.perf_counter() - t) * 1e3)
    return statistics.median(ts), min(ts)
def row(op, m): print(f'GraphBLAS {op:6} median {m[0]:10.1f} ms  min {m[1]:10.1f} ms', flush=True)
if 'pr' in ks:
    deg = np.asarray(A.sum(1)).ravel(); dang = deg == 0
    PT = (sp.diags(np.where(dang, 0, 1 / np.maximum(deg, 1))) @ A).T.tocsr()
    G = gb.io.from_scipy_sparse(PT)
    dv = gb.Vector.from_coo(np.flatnonzero(dang), np.ones(int(dang.sum())), size=n)
    def pr_gb(it=20, d=0.85):
        r = gb.Vector.from_scalar(1 / n, n)
        for _ in range(it):
            t = G.mxv(r, gb.semiring.plus_times).new()
            dn = r.ewise_mult(dv, gb.binary.first).new().reduce().new().value or 0.0
            r2 = gb.Vector.from_scalar((1 - d) / n + d * dn / n, n)
            r2(gb.binary.plus) << t.apply(gb.binary.times, right=d)
            r = r2
        return r
    row('pr', med(pr_gb))
Gb = gb.io.from_scipy_sparse(A)
if 'wcc' in ks:
    def wcc_gb():
        lab = gb.Vector.from_dense(np.arange(n, dtype=np.int64))
        while True:
            t = Gb.mxv(lab, gb.semiring.min_second).new()
            new = lab.ewise_add(t, gb.binary.min).new()
            if new.isequal(lab): return lab
            lab = new
    row('wcc', med(wcc_gb))
if 'tc' in ks:
    Lg = gb.io.from_scipy_sparse(sp.tril(A, -1).tocsr())
    def tc_gb(): return Lg.mxm(Lg.T, gb.semiring.plus_pair).new(mask=Lg.S).reduce_scalar().value
    row('tc', med(tc_gb, 2)); print('# triangles', tc_gb())
if 'lcc' in ks:
    def lcc_gb():
        C = Gb.mxm(Gb, gb.semiring.plus_pair).new(mask=Gb.S)
        t = C.reduce_rowwise().new()
        d = Gb.reduce_rowwise(gb.monoid.plus).new()
        return t, d
    row('lcc', med(lcc_gb, 2))
