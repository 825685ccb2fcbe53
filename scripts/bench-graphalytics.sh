#!/usr/bin/env bash
# The CPU backend on the Graphalytics kernels against SuiteSparse:GraphBLAS, in one run on the
# GPU machine (issue 26's CPU rows): Kronecker 20 (PageRank, WCC, CDLP) and 18 (triangles, LCC),
# symmetrised, and NY road (PageRank, WCC), for each binary given (e.g. before and after a change).
# GraphBLAS wheels on PYTHONPATH (see the device README). BACKENDS=gpu,cpu adds the GPU rows
# and PEERS=all the scipy/torch/GraphBLAS peers of ../shared/tools/peers-graphalytics.py.
# Usage, from the repository root:
#   bash scripts/bench-graphalytics.sh WORK_DIR BIN [BIN...]
set -u
W=$1; shift
mkdir -p "$W"
G=$1
for s in 18 20; do
  [ -f "$W/k${s}u.npz" ] || { "$G" generate kronecker --scale $s --weights unit -q -o "$W/k$s.el" &&
    "$G" convert "$W/k$s.el" --undirected -q -o "$W/k${s}u.npz"; }
done
NY=${NY:-data/dimacs9-usa-road-pace16/NY.gr.xz}
for bin in "$@"; do
  echo "## $bin"
  for k in pagerank wcc; do
    "$bin" bench $k "$W/k20u.npz" --undirected --backends ${BACKENDS:-cpu} --runs 10 | tail -1
    "$bin" bench $k "$NY" --undirected --backends ${BACKENDS:-cpu} --runs 10 | tail -1
  done
  "$bin" bench cdlp "$W/k20u.npz" --undirected --backends ${BACKENDS:-cpu} --runs 3 | tail -1
  for k in tc lcc; do
    "$bin" bench $k "$W/k18u.npz" --undirected --backends ${BACKENDS:-cpu} --runs 5 | tail -1
  done
done
[ "${PEERS:-}" = all ] && python3 ${PEERS_SCRIPT:-../shared/tools/peers-graphalytics.py} "$G" data "$W/peers"
python3 scripts/peers-graphblas.py "$W/k20u.npz" pr,wcc
python3 scripts/peers-graphblas.py "$W/k18u.npz" tc,lcc
python3 scripts/peers-cdlp.py "$G" "$W" 20
