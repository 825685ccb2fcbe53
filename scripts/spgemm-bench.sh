#!/usr/bin/env bash
# SpGEMM on the GPU machine, as recorded in docs/PERFORMANCE.md: `semigraph bench spgemm` (A*A
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
# Kronecker 18's A*A has 9.5 G terms (refused on the GPU before it starts: the bench reports it
# and times L*L^T<L>); A*A<A> one-shot through `semigraph spgemm` (the time header: the product
# after the uploads).
run "Kronecker 18" --generate kronecker --scale 18 --edge-factor 16 --runs 5
$B generate kronecker --scale 18 --edge-factor 16 -o $D/k18.mtx -q
for be in gpu cpu; do
  timeout 200 $B spgemm $D/k18.mtx $D/k18.mtx --mask $D/k18.mtx --semiring plus-times:i64 --backend $be -o $D/c.mtx -q 2>&1 | tail -2
  echo "Kronecker 18 A*A<A> $be: $(grep -E '^% (backend|product|time)' $D/c.mtx | sed 's/^% //' | tr '\n' ';' | cut -c1-300)"
done
rm -rf "$D"
