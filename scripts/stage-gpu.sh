#!/usr/bin/env bash
# Developers' tool: stages what a GPU machine without cargo needs in .devbin/ (ignored by git):
# the test binaries of the GPU crate, the CLI and the test kit (dev profile: they build in
# minutes), and the release `semigraph` binary for benchmarks; stripped, and packed into
# tests.tar.xz when large. Then, on the GPU machine, from the repository root:
#   bash .devbin/run-gpu-tests.sh [ARGS...]          # every staged test, SEMIGRAPH_REQUIRE_GPU=1
#   .devbin/bin/semigraph bench ...                 # benchmarks
# A user with a GPU runs `SEMIGRAPH_REQUIRE_GPU=1 cargo test --workspace` instead.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
# .devbin/ is in .gitignore
rm -rf .devbin
mkdir -p .devbin/tests .devbin/bin
cargo build --release -p semigraph-cli
cp target/release/semigraph .devbin/bin/
cargo test --no-run --message-format=json -p semigraph-gpu -p semigraph-cli -p semigraph-testkit "$@" |
  python3 -c '
import json, sys
for line in sys.stdin:
    try: m = json.loads(line)
    except ValueError: continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m.get("profile", {}).get("test"):
        print(m["executable"])
' | sort -u | while read -r exe; do cp "$exe" .devbin/tests/; done
cp target/debug/semigraph .devbin/bin/semigraph-dev
strip .devbin/tests/* .devbin/bin/* 2>/dev/null || true
cat > .devbin/run-gpu-tests.sh <<'RUN'
#!/usr/bin/env bash
# Runs every staged test binary with SEMIGRAPH_REQUIRE_GPU=1 (GPU tests must run, not skip).
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f .devbin/tests.tar.xz ] && tar xJf .devbin/tests.tar.xz -C .devbin
export SEMIGRAPH_REQUIRE_GPU=1 RUST_BACKTRACE=1 SEMIGRAPH_DATA=${SEMIGRAPH_DATA:-$PWD/data}
export SEMIGRAPH_BIN=${SEMIGRAPH_BIN:-$PWD/.devbin/bin/semigraph-dev}
fail=0
for t in .devbin/tests/*; do
  echo "=== $(basename "$t")"
  "$t" "$@" || fail=1
done
[ $fail = 0 ] && echo "ALL GPU TEST BINARIES PASSED" || { echo "SOME GPU TEST BINARIES FAILED"; exit 1; }
RUN
chmod +x .devbin/run-gpu-tests.sh
size=$(du -sm .devbin | cut -f1)
if [ "$size" -ge 40 ]; then
  (cd .devbin && tar cJf tests.tar.xz tests && rm -rf tests && mkdir tests)
fi
echo "staged: $(ls .devbin/bin | wc -l) binaries, tests $(ls .devbin/tests | wc -l) (packed: $([ -f .devbin/tests.tar.xz ] && echo yes || echo no)); $(du -sm .devbin | cut -f1) MiB"
