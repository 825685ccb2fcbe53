#!/bin/bash
# Road-graph latency benches (issue 29) for several semigraph binaries in one run, each
# named by its path: GPU BFS on NY (twice, interleaved), Bellman-Ford and delta-stepping on NY
# with weights 1..1000, BFS on Kronecker 20/22 (resident rows), a 1000 x 1000 grid and BAY.
# Run from the repository root on the GPU machine:
#   bash scripts/bench-road-latency.sh OLD NEW [MORE...]
set -u
NY=data/dimacs9-usa-road-pace16/NY.gr.xz
BAY=data/dimacs9-usa-road-pace16/BAY.gr.xz
rows() { grep -vE "setup" | grep -E "^(gpu|cpu)" | sed -E 's/ +/ /g' | cut -c1-150; }
nvidia-smi --query-gpu=name --format=csv,noheader
for r in 1 2; do for b in "$@"; do
  echo "== $b: BFS NY"; "$b" bench bfs $NY --backends gpu --runs 21 2>&1 | rows
done; done
for b in "$@"; do
  echo "== $b: SSSP NY, Bellman-Ford / delta-stepping"
  "$b" bench sssp $NY --assign-weights 1..1000 --algo bellman-ford --backends gpu --runs 11 2>&1 | rows
  "$b" bench sssp $NY --assign-weights 1..1000 --algo delta-stepping --backends gpu --runs 11 2>&1 | rows
  echo "== $b: BFS Kronecker 20 / 22 (resident)"
  for s in 20 22; do
    "$b" bench bfs --generate kronecker --scale $s --backends gpu --runs 11 --no-check 2>&1 | rows | grep resident
  done
  echo "== $b: BFS grid 1000 x 1000 / BAY (resident)"
  "$b" bench bfs --generate grid --rows 1000 --cols 1000 --backends gpu --runs 11 2>&1 | rows | grep resident
  "$b" bench bfs $BAY --backends gpu --runs 11 2>&1 | rows | grep resident
done
