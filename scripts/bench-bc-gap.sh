#!/bin/bash
# Betweenness centrality: semigraph's batched Brandes against GAP's bc (Brandes from one source
# at a time, OpenMP, all cores) on the same GAP-serialized graphs, in one call, on the GPU
# machine: .devbin staged by ../shared/tools/gpu-pack, ../shared/peers/gapbs-*.tar.gz copied
# into .devbin/peers/.   bash scripts/bench-bc-gap.sh
cd "$(dirname "$0")/.."
BIN=$PWD/.devbin/bin/semigraph W=/tmp/gapw G=/tmp/gapw/gapbs
[ -x $BIN ] || { xz -dk .devbin/bin/semigraph.xz; chmod +x $BIN; }
[ -x $G/bc ] || { mkdir -p $W; tar xzf .devbin/peers/gapbs-*.tar.gz -C $W; (cd $G && make -j16 bc converter > /dev/null 2>&1); }
[ -f $W/K20.sg ] || $G/converter -g 20 -b $W/K20.sg > /dev/null
[ -f $W/NY.sg ] || { $BIN convert .devbin/data/dimacs9-usa-road-pace16/NY.gr.xz -q -o $W/NY.mtx; $G/converter -f $W/NY.mtx -s -b $W/NY.sg > /dev/null; }
run() {  # graph sources backends
  printf 'GAP bc %s -i %s: %s ms\n' $1 $2 "$(timeout 120 $G/bc -f $W/$1.sg -i $2 -n 3 2>&1 | awk '/Average Time/ {printf "%.1f", $3 * 1000}')"
  echo "semigraph bench bc $1 --sources $2 --backends $3"
  timeout 150 $BIN bench bc $W/$1.sg --sources $2 --backends $3 --runs 5 -q 2>&1 | grep -vE '^#|^backend' | cut -c1-110
}
run K20 4 gpu,cpu; run K20 64 gpu,cpu; run NY 4 gpu,cpu; run NY 64 gpu
