#!/usr/bin/env bash
# The parallel DIMACS .gr and LDBC .v/.e readers against an earlier binary: a 4000 x 4000 grid
# (64 M arcs), `semigraph stats` whole command, twice. Run on the GPU machine from the
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
