#!/usr/bin/env bash
# Rough SpGEMM figures on the GPU machine: A*A and A*A masked by A, GPU and CPU (the time
# header of each written product; each command is one product after the uploads).
set -u
B=.devbin/bin/semigraph
D=$(mktemp -d)
NY=.devbin/data/dimacs9-usa-road-pace16/NY.gr.xz
$B generate kronecker --scale 16 --edge-factor 16 -o $D/k16.mtx -q
$B generate kronecker --scale 18 --edge-factor 16 -o $D/k18.mtx -q
head -3 $D/k16.mtx | cut -c1-100
run() { # label, args...
  local label=$1; shift
  timeout 150 $B spgemm "$@" -o $D/c.mtx -q 2>&1 | tail -2
  echo "$label: $(grep -E '^% (backend|product|time)' $D/c.mtx | sed 's/^% //' | tr '\n' ';' | cut -c1-300)"
  rm -f $D/c.mtx
}
for g in "$NY" $D/k16.mtx; do
  for be in gpu cpu; do
    run "A*A f32 $be $(basename $g)" "$g" "$g" --semiring plus-times:f32 --backend $be
    run "A*A.*A i64 $be $(basename $g)" "$g" "$g" --mask "$g" --semiring plus-times:i64 --backend $be
  done
done
run "A*A.*A i64 cpu k18" $D/k18.mtx $D/k18.mtx --mask $D/k18.mtx --semiring plus-times:i64 --backend cpu
