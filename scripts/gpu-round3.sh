#!/usr/bin/env bash
# Round-3 verification on the GPU machine: the whole staged suite, then the items 3-5 and 8
# by hand on the GPU against the CPU, then memcheck on the APSP/negative-cycle paths.
set -u
cd "$(dirname "$0")/.."
S=$PWD/.devbin/bin/semigraph
mkdir -p $OUT
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
bash .devbin/run-gpu-tests.sh > $OUT/suite.log 2>&1; echo "suite exit $?"
grep -E "^=== |test result|ALL GPU|SOME GPU|FAILED|panicked" $OUT/suite.log | head -80
export SEMIGRAPH_DATA=$PWD/.devbin/data
W=$(mktemp -d)
cd $W
python3 - <<'PY'
n=4000
with open('neg4000.gr','w') as f:
    f.write('p sp %d %d\n'%(n,n+1))
    for i in range(1,n): f.write('a %d %d 1\n'%(i,i+1))
    f.write('a %d 1 1\na 2 1 -5\n'%n)
n=20000
with open('negpath20000.gr','w') as f:
    f.write('p sp %d %d\n'%(n,n))
    for i in range(1,n): f.write('a %d %d 1\n'%(i,i+1))
    f.write('a %d %d -20000\n'%(n,1))
PY
printf '%%%%MatrixMarket matrix coordinate integer general\n1 2 2\n1 1 1073741824\n1 2 1073741824\n' > wrap.mtx
printf '%%%%MatrixMarket matrix coordinate integer general\n1 2 2\n1 1 2147483647\n1 2 -1\n' > fits.mtx
printf '%%%%MatrixMarket matrix coordinate real general\n2 1 2\n1 1 1073741824\n2 1 0.1\n' > f32.mtx
printf 'p sp 3 2\na 1 2 16777216\na 2 3 1.0\n' > f32sum.gr
printf 'p sp 2 1\na 1 2 9223372036854775809\n' > huge.gr
for b in cpu gpu; do
  echo "== backend $b"
  for sr in plus-times:i32 plus-times:i64 plus-times:u32; do echo "$sr wrap: $($S spmv wrap.mtx --semiring $sr --backend $b -q 2>&1 | grep -v '^#' | tr '\n' ' ')"; done
  echo "plus-times:i32 fits: $($S spmv fits.mtx --semiring plus-times:i32 --backend $b -q 2>&1 | grep -v '^#' | tr '\n' ' ')"
  echo "matrix_int64 i64: $($S spmv $SEMIGRAPH_DATA/lagraph/matrix_int64.mtx --semiring plus-times:i64 --backend $b -q 2>&1 | tail -1)"
  echo "f32 print: $($S spmv f32.mtx --semiring plus-times:f32 --backend $b -q 2>&1 | grep -v '^#' | tr '\n' ' ')"
  echo "f32 json: $($S spmv f32.mtx --semiring plus-times:f32 --backend $b -q --json 2>&1 | grep -o '"vertices".*')"
  echo "f32 sums: $($S sssp f32sum.gr -s 1 --distances f32 --backend $b -q 2>&1 | tail -1)"
  echo "beyond i64: $($S sssp huge.gr -s 1 --backend $b -q 2>&1 | tail -1)"
  for m in sources squaring auto; do
    /usr/bin/time -f "  apsp neg4000 $m: %e s" $S apsp neg4000.gr --method $m --backend $b -o /dev/null -q 2>&1 | tail -2
  done
  /usr/bin/time -f "  apsp negpath20000 auto: %e s" timeout 300 $S apsp negpath20000.gr --backend $b -o /dev/null -q 2>&1 | tail -2
  /usr/bin/time -f "  sssp negpath20000: %e s" $S sssp negpath20000.gr -s 1 --backend $b -q 2>&1 | tail -2
done
cd - > /dev/null
G=$(ls .devbin/tests/gpu_backend-* | head -1)
if command -v compute-sanitizer > /dev/null; then
  timeout 240 compute-sanitizer --tool memcheck --error-exitcode 9 $G --test-threads=1 apsp > $OUT/memcheck.log 2>&1; echo "memcheck apsp exit $?"
  grep -E "ERROR SUMMARY|test result" $OUT/memcheck.log | tail -3
fi
