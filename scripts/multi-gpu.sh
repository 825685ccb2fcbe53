#!/usr/bin/env bash
# Several GPUs on the GPU machine: NCCL found, the distributed tests, then the benchmarks of
# `semigraph bench ... --gpus`. Staged binaries in $DEVBIN (default .devbin): bin/semigraph,
# tests/gpu_vs_cpu. Usage (on a machine of 2+ GPUs, from the repository root):
#   bash scripts/multi-gpu.sh [tests|bench|all] [SCALE]
set -uo pipefail
DEVBIN=${DEVBIN:-.devbin}
what=${1:-all}
scale=${2:-22}
# NVLink multicast stays off on shared machines (it can take the host's GPUs out of service).
export NCCL_NVLS_ENABLE=0
# pip's NCCL (nvidia-nccl-cu13) ships lib/libnccl.so.2; cudarc looks for libnccl.so.
if ! ldconfig -p | grep -q 'libnccl.so '; then
  lib=$(python3 - <<'PY'
import glob, os, site
for d in site.getsitepackages() + [site.getusersitepackages()]:
    for f in glob.glob(os.path.join(d, "nvidia", "**", "libnccl.so.2"), recursive=True):
        print(os.path.dirname(f)); raise SystemExit
PY
)
  mkdir -p /tmp/nccl-link && ln -sf "$lib/libnccl.so.2" /tmp/nccl-link/libnccl.so
  export LD_LIBRARY_PATH=/tmp/nccl-link:$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  echo "# NCCL: $lib/libnccl.so.2"
fi
nvidia-smi -L
B=$DEVBIN/bin/semigraph
if [ "$what" = tests ] || [ "$what" = all ]; then
  SEMIGRAPH_REQUIRE_GPU=1 SEMIGRAPH_REQUIRE_GPUS=1 SEMIGRAPH_RANDOM_GRAPHS=${SEMIGRAPH_RANDOM_GRAPHS:-100} \
    timeout 300 "$DEVBIN/tests/gpu_vs_cpu" --test-threads=1
fi
if [ "$what" = bench ] || [ "$what" = all ]; then
  gpus=$(nvidia-smi -L | wc -l)
  list=1; for k in 2 4 8; do [ "$k" -le "$gpus" ] && list="$list,$k"; done
  timeout 200 $B bench bfs --generate kronecker --scale "$scale" --gpus "$list" --runs 5
  timeout 200 $B bench pagerank --generate kronecker --scale "$scale" --iterations 20 --gpus "$list" --runs 5
  timeout 200 $B bench wcc --generate kronecker --scale "$scale" --gpus "$list" --runs 5
  timeout 200 $B bench sssp data/dimacs9-usa-road-pace16/NY.gr.xz -s 1 --assign-weights 1..1000 --gpus "$list" --runs 3
  timeout 200 $B bench apsp --generate grid --rows 100 --cols 100 --weights 1..100 --gpus "$list" --runs 2
fi
