#!/usr/bin/env bash
# The data path on Kronecker 22 (issue 27), file to answer: .npz and text, GPU and CPU, 4/8/16 threads, WCC. Run on the GPU machine from the repository root with .devbin carried (.devbin/bin/semigraph.xz: the stripped, xz-compressed release binary).
cd "$(dirname "$0")/.."
xz -dkf .devbin/bin/semigraph.xz; chmod +x .devbin/bin/semigraph
S=$PWD/.devbin/bin/semigraph; W=/tmp/w; mkdir -p $W; cd $W
T() { /usr/bin/time -f "%e s wall, %M KB" "$@"; }
[ -f k22.el ] || { echo "== generate"; T $S generate kronecker --scale 22 --weights unit -q -o k22.el; }
[ -f k22.npz ] || { echo "== convert"; T $S convert k22.el -o k22.npz -q; }
ls -la k22.*
for r in 1 2; do for f in k22.npz k22.el; do echo "== bfs $f gpu ($r)"; T $S bfs $f -s 0 --backend gpu -q -o o-$f.txt; grep -E "# (setup|time)" o-$f.txt; done; done
diff <(grep -v "^#" o-k22.npz.txt) <(grep -v "^#" o-k22.el.txt) >/dev/null && echo "levels equal"
echo "== bfs npz gpu, out to /dev/null"; T $S bfs k22.npz -s 0 --backend gpu -q > /dev/null
echo "== bfs npz cpu"; T $S bfs k22.npz -s 0 --backend cpu -q -o oc.txt; grep -E "# (setup|time)" oc.txt
diff <(grep -v "^#" o-k22.npz.txt) <(grep -v "^#" oc.txt) >/dev/null && echo "cpu levels equal"
for t in 4 8; do echo "== npz gpu $t threads"; RAYON_NUM_THREADS=$t T $S bfs k22.npz -s 0 --backend gpu -q -o o.txt; grep -E "# (setup|time)" o.txt; done
echo "== wcc k22.npz gpu"; T $S wcc k22.npz --backend gpu -q -o w.txt; grep -E "# (setup|time)" w.txt | head -3
