#!/usr/bin/env bash
# The parallel readers against an earlier binary: a 4000 x 4000 grid (64 M arcs) as DIMACS .gr
# and LDBC .v/.e, `semigraph stats` whole command; Kronecker 22 as an edge list (.el, integer
# weights) and Kronecker 20 as Matrix Market (.mtx), `semigraph bfs` end to end (the header's
# `read` and the wall clock); twice each. Run on the GPU machine from the
# repository root with .devbin carried: .devbin/bin/semigraph-new.xz (this commit) and
# .devbin/bin/semigraph.xz (the one to compare with), stripped and xz-compressed.
R=$(cd "$(dirname "$0")/.." && pwd); mkdir -p /tmp/w; cd /tmp/w
xz -dc $R/.devbin/bin/semigraph-new.xz > sg && chmod +x sg
xz -dc $R/.devbin/bin/semigraph.xz > sg-before && chmod +x sg-before
[ -f grid.gr ] || ./sg generate grid --rows 4000 --cols 4000 -o grid.gr -q
[ -f grid.v ] || ./sg convert grid.gr -o grid.v -q
ls -la grid.gr grid.v grid.e
for rep in 1 2; do for b in sg-before sg; do for f in grid.gr grid.v; do
  /usr/bin/time -f "$b $f %e s %M KB" ./$b stats $f > /dev/null
done; done; done
[ -f k22.el ] || ./sg generate kronecker --scale 22 -o k22.el -q
[ -f k20.mtx ] || { ./sg generate kronecker --scale 20 -o k20.el -q && ./sg convert k20.el -o k20.mtx --combine min -q; }
ls -la k22.el k20.mtx
for b in sg-before sg; do ./$b bfs k20.mtx -s 1 -q -o out.txt; done # kernels compiled, files cached
for rep in 1 2; do for b in sg-before sg; do for f in k22.el k20.mtx; do
  /usr/bin/time -f "$b $f wall %e s %M KB" ./$b bfs $f -s 1 -q -o out.txt
  grep -o "read [0-9.]* s" out.txt | head -1
done; done; done
