#!/usr/bin/env bash
# Call A (one GPU): the first BFS of a process, old CLI (e0fa4c0) against new (kernel
# profiles), and BFS hop counts relaxed in buckets (the SSSP fixpoint with unit weights and
# --delta hops) against the BFS fixpoint in one bucket.
set -u
cd "$(dirname "$0")/.."
D=/tmp/a; mkdir -p $D
xz -dc .devbin31/sg.xz > $D/old; xz -dc .devbin32/sg.xz > $D/new; chmod +x $D/old $D/new
for g in NY BAY; do xz -dc data/dimacs9-usa-road-pace16/$g.gr.xz > $D/$g.gr; done
xz -dc .devbin31/FLA.gr.xz > $D/FLA.gr
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
export SEMIGRAPH_KERNEL_CACHE=$D/kc
$D/new generate kronecker --scale 20 -o $D/k20.npz -q
t() { grep -h "^# time\|^# backend\|^# setup" $D/out.txt | tr '\n' ' ' | sed 's/# //g'; echo; }
echo "== one-shot: a first run of each fills the kernel cache (and new's profile)"
for b in old new; do $D/$b bfs $D/k20.npz -s 0 --backend gpu -q -o $D/out.txt; echo "$b (first): $(t)"; done
for i in 1 2 3 4 5; do for b in old new; do
  $D/$b bfs $D/k20.npz -s 0 --backend gpu -q -o $D/out.txt; echo "$b: $(t)"; done; done
cmp <($D/old bfs $D/k20.npz -s 0 --backend gpu -q | grep -v '^#') <($D/new bfs $D/k20.npz -s 0 --backend gpu -q | grep -v '^#') && echo "levels equal old/new"
for b in old new; do echo "== warm $b"; $D/$b bench bfs $D/k20.npz --source 0 --backends gpu --runs 11 2>&1 | tail -3; done
ls $D/kc/profiles; cat $D/kc/profiles/*
echo "== BFS in buckets of hops (old binary)"
for g in NY FLA; do
  $D/old bench bfs $D/$g.gr --backends gpu --runs 11 2>&1 | tail -2
  for delta in 2 8 32 128 100000000; do
    echo "-- $g delta $delta"; $D/old bench sssp $D/$g.gr --backends gpu --algo fixpoint --delta $delta --runs 11 --no-check 2>&1 | tail -1
  done
done
