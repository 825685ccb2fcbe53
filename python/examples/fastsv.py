"""Connected components by FastSV (Zhang, Azad, Hu 2020; LAGraph's LG_CC_FastSV), written only in
semigraph's Python algebra: every vector stays on the backend, and each round reads one number
back (whether the grandparents changed).

    python fastsv.py graph.mtx        # prints the number of components
"""

import numpy as np

import semigraph as sg

# min-second: y(i) = min over the neighbours k of x(k). Its zero (the largest u32) is "no entry",
# so every vertex id, 0 included, is a value.
SR = "min-second:u32"


def fastsv(a, backend="auto"):
    """The component of each vertex of the undirected graph ``a`` (a SciPy matrix holding both
    directions of each edge), as the smallest vertex id in it."""
    n = a.shape[0]
    A = sg.Matrix(a, SR, backend=backend)
    f = sg.Vector(np.arange(n, dtype=np.uint32), SR, backend=backend)  # parents
    gp = f.dup()                                                       # grandparents
    while True:
        mngp = sg.mxv(A, gp)                 # the smallest grandparent among the neighbours
        f.assign(f, mngp, accum="min")       # stochastic hooking: f(f(i)) min= mngp(i)
        f = f.ewise_add(mngp, "min")         # aggressive hooking
        f = f.ewise_add(gp, "min")           # shortcutting
        gp_next = f.extract(f)               # f(f(i))
        same = gp_next.ewise_mult(gp, "eq").reduce()   # min of 1 (equal) / 0 (differs)
        gp = gp_next
        if same == 1:
            return f.to_numpy()


if __name__ == "__main__":
    import sys
    labels = fastsv(sg.read_graph(sys.argv[1], undirected=True))
    print(len(np.unique(labels)))
