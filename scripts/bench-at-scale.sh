#!/usr/bin/env bash
# bench bfs at scale with --no-check (issue 27 item 7): Kronecker 24 and 25 on the GPU, setup once; Kronecker 26 was run the same way by hand (--scale 26). Run on the GPU machine with .devbin carried.
cd "$(dirname "$0")/.."
xz -dkf .devbin/bin/semigraph.xz; chmod +x .devbin/bin/semigraph
S=$PWD/.devbin/bin/semigraph
for sc in 24 25; do
  echo "== bench bfs kronecker $sc --no-check"
  timeout 250 /usr/bin/time -f "%e s wall, %M KB" $S bench bfs --generate kronecker --scale $sc --backends gpu --no-check --runs 10 -q 2>&1 | tail -8
done
