#!/usr/bin/env bash
# The registry's Graphalytics kernels with two release binaries, alternated in one call on the
# GPU machine (a change's "unchanged within noise" measured in one run): PageRank and WCC on
# Kronecker 20, CDLP, LCC and triangles on Kronecker 18 (generated, symmetrised to .npz), then
# whether the one-shot commands print the same values.
#   bash scripts/bench-kernels-old-new.sh OLD_BIN NEW_BIN [ROUNDS] [BACKENDS]
set -u
OLD=$1 NEW=$2 ROUNDS=${3:-2} BE=${4:-gpu,cpu}
W=${WORK:-/tmp/kernels-old-new}
mkdir -p "$W"
for s in 18 20; do
  [ -f "$W/k$s.npz" ] || { "$NEW" generate kronecker --scale $s --weights unit -o "$W/k$s.el" -q &&
    "$NEW" convert "$W/k$s.el" --undirected --combine min -o "$W/k$s.npz" -q; }
done
for round in $(seq "$ROUNDS"); do
  for b in old new; do
    B=$OLD; [ $b = new ] && B=$NEW
    echo "== round $round $b"
    for k in "pagerank $W/k20.npz --iterations 20" "wcc $W/k20.npz" "cdlp $W/k18.npz" \
             "lcc $W/k18.npz" "tc $W/k18.npz"; do
      echo "-- $k"
      # shellcheck disable=SC2086
      "$B" bench $k --backends "$BE" --runs 10 -q 2>&1 | grep -vE '^#|^backend' | cut -c1-150
    done
  done
done
for k in pagerank wcc cdlp lcc tc; do
  o=$("$OLD" $k "$W/k18.npz" -q --backend cpu | grep -v '^#' | md5sum | cut -c1-12)
  n=$("$NEW" $k "$W/k18.npz" -q --backend cpu | grep -v '^#' | md5sum | cut -c1-12)
  echo "one-shot $k (CPU): old $o new $n $([ "$o" = "$n" ] && echo same || echo DIFFERENT)"
done
