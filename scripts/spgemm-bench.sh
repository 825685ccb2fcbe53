#!/usr/bin/env bash
# SpGEMM on the GPU machine, as recorded in docs/BENCH-GPU.md: `semigraph bench spgemm` (A*A
# against cuSPARSE and the CPU backend; triangle counting's masked L*L^T<L> on both backends)
# on NY road, a 3-D 27-point stencil, Kronecker 16 and Kronecker 18.
set -u
B=${SEMIGRAPH_BIN:-.devbin/bin/semigraph}
NY=${NY:-.devbin/data/dimacs9-usa-road-pace16/NY.gr.xz}
D=$(mktemp -d)
run() { # label, args...
  local label=$1; shift
  echo "=== $label"
  timeout 200 $B bench spgemm "$@" 2>&1 | tail -12
}
run "NY road" "$NY" --undirected
run "stencil 100^3 27-point" --generate stencil --dims 100x100x100 --points 27
run "Kronecker 16" --generate kronecker --scale 16 --edge-factor 16
run "Kronecker 18" --generate kronecker --scale 18 --edge-factor 16 --runs 5
rm -rf "$D"
