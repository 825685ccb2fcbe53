#!/usr/bin/env bash
# The data path on Kronecker 22 (issue 27): text vs .npz vs .sg, end to end, old binary beside the new (.devbin/sg-old.xz), and SciPy interop. Run on the GPU machine from the repository root with .devbin carried.
set -u
cd "$(dirname "$0")/.."
xz -dkf .devbin/bin/semigraph.xz
[ -f .devbin/sg-old ] || { xz -dc .devbin/sg-old.xz > .devbin/sg-old; chmod +x .devbin/sg-old; }
S=$PWD/.devbin/bin/semigraph; O=$PWD/.devbin/sg-old; W=/tmp/w; mkdir -p $W; cd $W
T() { /usr/bin/time -f "%e s wall, %M KB" "$@"; }
echo "== generate k22"; T $S generate kronecker --scale 22 --weights unit -q -o k22.el; ls -la k22.el
for b in $O $S; do
  echo "== $(basename $b) bfs k22.el (gpu)"; T $b bfs k22.el -s 0 --backend gpu -q -o o.txt; grep "# time" o.txt
done
for t in 2 8; do echo "== new, $t threads"; RAYON_NUM_THREADS=$t T $S bfs k22.el -s 0 --backend gpu -q -o o2.txt; grep "# time" o2.txt; done
echo "== new again, 16"; T $S bfs k22.el -s 0 --backend gpu -q -o o3.txt; grep "# time" o3.txt
echo "== convert to npz"; T $S convert k22.el -o k22.npz -q; ls -la k22.npz
echo "== convert to sg"; T $S convert k22.el -o k22.sg -q; ls -la k22.sg
for f in k22.npz k22.sg; do for r in 1; do echo "== bfs $f ($r)"; T $S bfs $f -s 0 --backend gpu -q -o o-$f.txt; grep "# time" o-$f.txt; done; done
diff <(grep -v "^#" o.txt) <(grep -v "^#" o-k22.npz.txt) > /dev/null && echo "npz levels equal the text's"
diff <(grep -v "^#" o.txt) <(grep -v "^#" o-k22.sg.txt) > /dev/null && echo "sg levels equal the text's"
echo "== cpu bfs k22.npz"; T $S bfs k22.npz -s 0 --backend cpu -q -o oc.txt; grep "# time" oc.txt
echo "== gpu bfs k22.npz, output to /dev/null"; T $S bfs k22.npz -s 0 --backend gpu -q > /dev/null
python3 -c "
import time, numpy as np, scipy.sparse as sp
t = time.perf_counter(); A = sp.load_npz('/tmp/w/k22.npz'); t = time.perf_counter() - t
print(f'scipy load_npz k22.npz: {A.shape}, nnz {A.nnz}, {A.dtype}, {t:.2f} s')
R = sp.random(5000, 4000, density=0.002, format='csc', random_state=1, dtype=np.float32)
sp.save_npz('/tmp/w/r.npz', R, compressed=True)
"
S=$S python3 -c "
import os, subprocess, numpy as np, scipy.sparse as sp
S = os.environ['S']
R = sp.load_npz('/tmp/w/r.npz').tocsr()
subprocess.run([S, 'convert', '/tmp/w/r.npz', '-o', '/tmp/w/r.mtx', '-q'], check=True)
import scipy.io
M = scipy.io.mmread('/tmp/w/r.mtx').tocsr()
print('scipy csc (deflated) -> semigraph -> mtx: shape', M.shape, 'nnz', M.nnz, 'equal', (abs(M - R.astype(np.float64)) > 0).nnz == 0 and M.shape == R.shape)
subprocess.run([S, 'convert', '/tmp/w/r.mtx', '-o', '/tmp/w/r2.npz', '-q'], check=True)
B = sp.load_npz('/tmp/w/r2.npz')
print('semigraph npz -> scipy: equal', (abs(B - R) > 0).nnz == 0 and B.shape == R.shape, B.format)
"
