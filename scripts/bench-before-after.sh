#!/usr/bin/env bash
# The algorithm and GEMM benches with two release binaries in one call on the GPU machine, so
# that a refactor's "unchanged within noise" is measured in the same run:
#   bash scripts/bench-before-after.sh .devbin/old/semigraph .devbin/bin/semigraph
# Each command runs with the old binary, then the new one, then the old one again (the
# spread between the two old runs is the noise).
set -u
old=$1 new=$2
NY=${NY:-.devbin/data/dimacs9-usa-road-pace16/NY.gr.xz}
run() {
  for b in "$old" "$new" "$old"; do
    echo "### $(basename "$(dirname "$b")")/$(basename "$b") $*"
    "$b" "$@" -q 2>&1 | grep -vE '^\s*$' | head -40
  done
}
run bench bfs "$NY" -s 1 --runs 10
run bench sssp "$NY" -s 1 --assign-weights 1..1000 --algo bellman-ford --runs 10
run bench sssp "$NY" -s 1 --assign-weights 1..1000 --algo delta-stepping --runs 10
run bench bfs --generate kronecker --scale 20 --runs 10
run bench pagerank "$NY" --runs 10
run bench pagerank --generate kronecker --scale 20 --runs 10
run bench wcc "$NY" --runs 10
run bench wcc --generate kronecker --scale 20 --runs 10
run bench gemm --n 8192 --semirings min-plus:f32,min-plus:i32 --runs 10
