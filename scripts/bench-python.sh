#!/usr/bin/env bash
# The Python package on the GPU machine: its tests with the GPU required, then
# python/bench/bench_python.py (SciPy against semigraph one-shot and on a warm Graph) on NY
# and Kronecker 20, and the CLI's `bench bfs` on the same graphs and sources (the Rust call
# the Python call wraps). Run from the repository root with .devbin carried:
# .devbin/wheels/semigraph-*.whl (`maturin build --release -m python/Cargo.toml`) and
# .devbin/bin/semigraph-new.xz (the release CLI, stripped, xz-compressed).
R=$(cd "$(dirname "$0")/.." && pwd); D=${DEVBIN:-$R/.devbin}
OUT=${OUT:-/tmp/out}; mkdir -p $OUT /tmp/w; cd /tmp/w
xz -dc $D/bin/semigraph-new.xz > sg && chmod +x sg
rm -rf site && mkdir site && python3 -c "import zipfile,glob; zipfile.ZipFile(glob.glob('$D/wheels/*.whl')[0]).extractall('site')"
export PYTHONPATH=/tmp/w/site PYTHONUNBUFFERED=1
python3 -c "import semigraph, numpy, scipy, networkx; print(semigraph.__version__, semigraph.gpu_status(), numpy.__version__, scipy.__version__, networkx.__version__)"
echo "== pytest (GPU required)"
(cd /tmp && SEMIGRAPH_REQUIRE_GPU=1 SEMIGRAPH_DATA=$R/data timeout 300 python3 -m pytest -q -p no:cacheprovider -W ignore $R/python/tests 2>&1 | tail -25)
NY=$R/data/dimacs9-usa-road-pace16/NY.gr.xz
[ -f k20.npz ] || ./sg generate kronecker --scale 20 -o k20.npz -q
K=$(python3 -c "import scipy.sparse as sp, numpy as np; a=sp.load_npz('k20.npz'); print(int(np.argmax(np.diff(a.indptr))))")
echo "== python bench (k20 source $K, the vertex with most arcs)"
timeout 300 python3 $R/python/bench/bench_python.py $NY:0 k20.npz:$K --backend gpu --runs 21 --json $OUT/py.json
echo "== the same on the CPU backend (NY)"
timeout 200 python3 $R/python/bench/bench_python.py $NY:0 --backend cpu --runs 11
echo "== CLI bench bfs (the Rust call)"
timeout 100 ./sg bench bfs $NY --source 1 --backends gpu --runs 21 2>&1 | tail -5
timeout 100 ./sg bench bfs k20.npz --source $K --backends gpu --runs 21 2>&1 | tail -5
