"""Betweenness centrality by batched breadth-first search (Brandes 2001, as LAGraph's
LAGr_Betweenness), written only in semigraph's Python algebra: one row per source, the
forward sweep counts shortest paths level by level, the backward sweep accumulates
dependencies.

    python betweenness.py graph.mtx 64     # the 10 most central vertices from 64 sources
"""

import numpy as np

import semigraph as sg

SR = "plus-times:f64"


def betweenness(a, sources, backend="auto"):
    """Unnormalised betweenness of every vertex of the directed graph ``a`` (a SciPy matrix)
    from the shortest paths that start at ``sources`` (all vertices: NetworkX's
    ``betweenness_centrality(G, normalized=False)``)."""
    n, k = a.shape[0], len(sources)
    A = sg.Matrix(a, SR, backend=backend).apply("one")
    # paths(s, v): the number of shortest paths from sources[s] to v found so far.
    paths = sg.Matrix.from_entries(np.arange(k), sources, 1.0, shape=(k, n), semiring=SR,
                                   backend=backend)
    frontier = sg.mxm(paths, A, mask=paths, complement=True)
    levels = []
    while frontier.nvals:
        levels.append(frontier.apply("one"))
        paths = paths.ewise_add(frontier)
        frontier = sg.mxm(frontier, A, mask=paths, complement=True)
    # bcu(s, v) = 1 + the dependency of sources[s] on v.
    bcu = sg.Matrix(np.ones((k, n)), SR, backend=backend)
    for d in range(len(levels) - 1, 0, -1):
        w = levels[d].ewise_mult(bcu.ewise_mult(paths, "div"))     # (1 + delta(v)) / sigma(v)
        w = sg.mxm(w, A, mask=levels[d - 1], transpose_b=True)     # summed over v's parents u
        bcu = bcu.ewise_add(w.ewise_mult(paths))                   # times sigma(u)
    return bcu.reduce_cols().to_numpy() - k


if __name__ == "__main__":
    import sys
    a = sg.read_graph(sys.argv[1])
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 64
    c = betweenness(a, np.arange(min(k, a.shape[0])))
    print(np.argsort(-c)[:10])
