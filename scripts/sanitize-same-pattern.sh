#!/usr/bin/env bash
# compute-sanitizer memcheck and racecheck: the kernels test binary, and gpu_backend tests that run same_pattern (WordsDiffer) and the device transpose.
cd "$(dirname "$0")/.."
export SEMIGRAPH_REQUIRE_GPU=1 SEMIGRAPH_DATA=$PWD/.devbin/data
tar xJf .devbin/tests.tar.xz -C .devbin
G=$(ls .devbin/tests/gpu_backend-*)
$G --list 2>/dev/null | grep -E "^(csr|ell)::(min_plus_f32|plus_times_i32)|graphalytics::ldbc" | head -5
for tool in memcheck racecheck; do
  for name in csr::min_plus_f32 ell::min_plus_f32 csr::plus_times_i32 graphalytics::ldbc; do
    timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $G --test-threads=1 --exact "$name" > /tmp/san.log 2>&1
    echo "$tool $name rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1) $(grep -E '^test result' /tmp/san.log)"
  done
  for K in .devbin/tests/kernels-*; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $K --test-threads=1 > /tmp/san.log 2>&1
    echo "$tool $(basename $K) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' /tmp/san.log | tail -1) $(grep -E '^test result' /tmp/san.log)"
  done
done
