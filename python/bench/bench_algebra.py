"""The Python algebra's call overhead over the Rust call: y = A x (plus-times f64, CSR) on a
graph, as semigraph.mxv from Python (the matrix and vectors held on the backend; into a vector
made once, as the CLI's, and into a new one) against `semigraph spmv` (the Rust call; median),
and the same product by SciPy (one core) and, on the GPU, CuPy's cuSPARSE where CuPy imports.

    python bench_algebra.py GRAPH --cli path/to/semigraph [--backend gpu] [--runs 50]
"""

import argparse
import json
import subprocess
import time

import numpy as np

import semigraph as sg


def median_ms(f, runs, sync):
    f()
    sync()
    t = []
    for _ in range(runs):
        s = time.perf_counter()
        f()
        sync()
        t.append((time.perf_counter() - s) * 1e3)
    return float(np.median(t))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("graph")
    p.add_argument("--cli", required=True)
    p.add_argument("--backend", default="auto")
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--json")
    a = p.parse_args()
    A = sg.read_graph(a.graph)
    n = A.shape[0]
    x = np.ones(n)
    M = sg.Matrix(A, "plus-times:f64", backend=a.backend)
    X = sg.Vector(x, "plus-times:f64", backend=a.backend)
    Y = sg.Vector.empty(n, "plus-times:f64", backend=a.backend)
    out = {"graph": a.graph, "n": n, "nnz": int(A.nnz), "backend": M.backend}
    # As the CLI times it: into a vector made once, then a wait for the device.
    out["python_ms"] = median_ms(lambda: sg.mxv(M, X, out=Y), a.runs, sg.wait)
    assert np.allclose(Y.to_numpy(), A @ x)
    # A new vector each call, as y = A @ x.
    out["python_new_ms"] = median_ms(lambda: M @ X, a.runs, sg.wait)
    r = subprocess.run([a.cli, "spmv", a.graph, "--semiring", "plus-times:f64", "--format", "csr",
                        "--backend", "gpu" if M.backend == "gpu" else "cpu",
                        "--repeat", str(a.runs), "--json", "-q", "-o", "/tmp/spmv.json"],
                       capture_output=True, text=True, check=True)
    with open("/tmp/spmv.json") as f:
        cli = json.load(f)
    out["cli"] = {k: cli[k] for k in ("backend", "format", "semiring", "time")}
    out["cli_ms"] = cli["time"]["spmv_median_ms"]
    out["overhead"] = out["python_ms"] / out["cli_ms"] - 1
    out["scipy_ms"] = median_ms(lambda: A @ x, min(a.runs, 20), lambda: None)
    if M.backend == "gpu":
        try:
            import cupy, cupyx.scipy.sparse as cs
            G = cs.csr_matrix(A)
            xg = cupy.asarray(x)
            out["cupy_ms"] = median_ms(lambda: G @ xg, a.runs, cupy.cuda.Device().synchronize)
        except Exception as e:  # noqa: BLE001 - a peer that does not run is reported
            out["cupy"] = f"not run: {e}"
    print(json.dumps(out, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f)


if __name__ == "__main__":
    main()
