"""The algebra itself: matrices and vectors held where the backend computes (device memory on
the GPU), and the GraphBLAS operations over any built-in semiring.

A :class:`Matrix` or :class:`Vector` lives in one semiring (``"min-plus:f64"``, ...), whose
zero is its "no entry": a vector is dense on the backend, and position ``i`` has an entry unless
its value is the semiring's zero (``inf`` in min-plus, ``0`` in plus-times, ``False`` in
or-and). An operation runs in the semiring it is given, or its first operand's; an operand
held in another semiring of the same value type is converted for the call (a copy through the
host: convert once with :meth:`Matrix.as_semiring` when it repeats). Operators are named as
:func:`operators` lists them (``"plus"``, ``"min"``, ``"lt"``, ``"minv"``, ``"tril"``,
``"value_gt"``, ...)::

    import semigraph as sg
    A = sg.Matrix(scipy_matrix, "or-and:bool")           # the pattern
    frontier = sg.Vector.from_entries(n, [0], [True], "or-and:bool")
    seen = frontier.dup()
    while frontier.nvals:                                # breadth-first search
        frontier = sg.vxm(frontier, A, mask=seen, complement=True)
        seen = seen.ewise_add(frontier)

Values come back as NumPy arrays of the value type (``float16`` and ``bfloat16`` as
``float32``) and SciPy CSR matrices. Arithmetic is the semiring's in its type, as in
GraphBLAS: integers wrap or saturate as the semiring defines.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse

from . import _native
from ._convert import _values

__all__ = ["Matrix", "Vector", "mxv", "vxm", "mxm", "operators", "wait"]


def _indices(idx):
    idx = np.ascontiguousarray(np.asarray(idx).ravel())
    if idx.size and idx.dtype.kind not in "iu":
        raise TypeError(f"indices must be integers, not {idx.dtype}")
    return idx.astype(np.int64, copy=False)


def operators(semiring: str) -> dict:
    """The operators of a semiring's value type and its zero and one:
    ``{"zero", "one", "unary", "binary", "select"}``."""
    zero, one, unary, binary, select = _native.semiring_info(semiring)
    return {"zero": zero, "one": one, "unary": unary, "binary": binary, "select": select}


def wait():
    """Waits until the GPU has done the operations queued on it (``GrB_wait``): an operation
    returns once its work is queued, and a read (``to_numpy``, ``nvals``, a reduction) waits by
    itself, so this is for timing. Nothing to wait for on the CPU."""
    _native.wait()


class _Held:
    """What matrices and vectors share: the handle on the backend, its semiring and the
    element-wise operations (each returns an object of the operand's own class)."""

    __slots__ = ("_h",)

    @property
    def semiring(self) -> str:
        """The semiring, as :func:`semigraph.semirings` names it."""
        return self._h.semiring

    @property
    def backend(self) -> str:
        """``"cpu"`` or ``"gpu"``."""
        return self._h.backend

    @property
    def nvals(self) -> int:
        """The number of entries."""
        return _native.nvals(self._h)

    def apply(self, op: str, left=None, right=None, semiring=None):
        """The unary operator ``op`` at every entry, or the binary operator ``op`` with its
        first operand ``left`` or its second ``right`` fixed. A result equal to the zero is no
        entry."""
        return type(self)(_native.apply(self._h, op, left, right, semiring))

    def ewise_add(self, other, op=None, semiring=None):
        """Entries where either has one: ``op(a, b)`` where both do (default: the semiring's
        addition), the one entry elsewhere."""
        return type(self)(_native.ewise(self._h, other._h, True, op, semiring))

    def ewise_mult(self, other, op=None, semiring=None):
        """Entries where both have one: ``op(a, b)`` (default: the semiring's
        multiplication)."""
        return type(self)(_native.ewise(self._h, other._h, False, op, semiring))


class Matrix(_Held):
    """A sparse matrix held by a backend in a built-in semiring.

    ``Matrix(a, semiring="plus-times:f64", backend="auto")`` takes anything
    ``scipy.sparse.csr_matrix`` accepts; parallel entries combine by the semiring's addition
    and an entry equal to its zero is none. :meth:`from_entries` builds one from coordinates.
    """

    __slots__ = ()

    def __init__(self, a, semiring: str = "plus-times:f64", backend: str = "auto"):
        if isinstance(a, _native.MatrixHandle):
            self._h = a
            return
        if not scipy.sparse.issparse(a) or a.format != "csr":
            a = scipy.sparse.csr_matrix(a)
        self._h = _native.matrix_from_csr(
            a.shape[0], a.shape[1], a.indptr, a.indices, _values(a.data), semiring, backend
        )

    @classmethod
    def from_entries(cls, rows, cols, values=None, shape=None, semiring="plus-times:f64",
                     backend="auto"):
        """The matrix of entries ``(rows[k], cols[k], values[k])`` (``GrB_Matrix_build``):
        repeated positions combine by the semiring's addition; ``values`` one number: every
        entry has it; no ``values``: every entry is the semiring's one. ``shape`` defaults to
        the largest indices plus one."""
        rows, cols = _indices(rows), _indices(cols)
        if shape is None:
            shape = (int(rows.max()) + 1 if rows.size else 0, int(cols.max()) + 1 if cols.size else 0)
        vals = None
        if values is not None:
            vals = _values(values).ravel()
            if vals.size == 1 and rows.size != 1:
                vals = np.full(rows.size, vals[0], dtype=vals.dtype)
        return cls(_native.matrix_from_entries(shape[0], shape[1], rows, cols, vals, semiring,
                                               backend))

    @property
    def shape(self) -> tuple:
        return self._h.shape

    @property
    def nrows(self) -> int:
        return self._h.shape[0]

    @property
    def ncols(self) -> int:
        return self._h.shape[1]

    def to_scipy(self) -> scipy.sparse.csr_matrix:
        """The entries as a SciPy CSR matrix (rows sorted by column)."""
        indptr, indices, data = _native.matrix_to_csr(self._h)
        return scipy.sparse.csr_matrix((data, indices, indptr), shape=self.shape)

    def as_semiring(self, semiring: str) -> "Matrix":
        """The same entries in another semiring of the same value type (a value equal to the
        new zero is no entry)."""
        if semiring == self.semiring:
            return self
        return Matrix(_native.matrix_as(self._h, semiring))

    @property
    def T(self) -> "Matrix":
        """The transpose (a new matrix)."""
        return Matrix(_native.transpose(self._h))

    def diag(self) -> "Vector":
        """The diagonal of a square matrix."""
        return Vector(_native.diag(self._h))

    def reduce_rows(self, semiring=None) -> "Vector":
        """The semiring sum of each row (the zero for an empty row)."""
        return Vector(_native.reduce_matrix(self._h, 1, semiring))

    def reduce_cols(self, semiring=None) -> "Vector":
        """The semiring sum of each column."""
        return Vector(_native.reduce_matrix(self._h, 0, semiring))

    def reduce(self, semiring=None):
        """The semiring sum of every entry, as a Python number."""
        return self.reduce_rows(semiring).reduce()

    def select(self, op: str, thunk=None) -> "Matrix":
        """The entries the select operator ``op`` keeps (``tril``, ``offdiag``,
        ``value_gt`` with ``thunk`` the bound, ...)."""
        return Matrix(_native.select(self._h, op, thunk))

    def extract(self, rows=None, cols=None) -> "Matrix":
        """``A(rows, cols)``: the rows and columns listed (``None``: all, in order; indices
        may repeat)."""
        r = None if rows is None else _indices(rows)
        c = None if cols is None else _indices(cols)
        return Matrix(_native.extract_matrix(self._h, r, c))

    def __matmul__(self, other):
        if isinstance(other, Vector):
            return mxv(self, other)
        if isinstance(other, Matrix):
            return mxm(self, other)
        return NotImplemented

    def __repr__(self):
        return (f"semigraph.Matrix({self.nrows}x{self.ncols}, {self.nvals} entries, "
                f"{self.semiring}, {self.backend})")


class Vector(_Held):
    """A vector held by a backend in a built-in semiring: position ``i`` has an entry unless
    its value is the semiring's zero.

    ``Vector(values, semiring="plus-times:f64", backend="auto")`` takes a 1-d array of every
    position's value; :meth:`from_entries` and :meth:`empty` make one from entries.
    """

    __slots__ = ()

    def __init__(self, values, semiring: str = "plus-times:f64", backend: str = "auto"):
        if isinstance(values, _native.VectorHandle):
            self._h = values
            return
        values = np.asarray(values)
        if values.ndim != 1:
            raise ValueError(f"a vector's values are 1-d, these are {values.shape}")
        self._h = _native.vector_from_values(_values(values), semiring, backend)

    @classmethod
    def empty(cls, n: int, semiring: str = "plus-times:f64", backend: str = "auto"):
        """``n`` positions without an entry."""
        return cls(_native.vector_empty(n, semiring, backend))

    @classmethod
    def from_entries(cls, n: int, indices, values, semiring: str = "plus-times:f64",
                     backend: str = "auto"):
        """``n`` positions with the entries ``values`` (an array, or one number for all) at
        ``indices`` (distinct)."""
        v = cls.empty(n, semiring, backend)
        v.assign(indices, values)
        return v

    @property
    def size(self) -> int:
        return self._h.size

    def __len__(self):
        return self._h.size

    def to_numpy(self) -> np.ndarray:
        """Every position's value (the semiring's zero where there is no entry)."""
        return _native.vector_to_numpy(self._h)

    def entries(self) -> tuple:
        """``(indices, values)`` of the entries."""
        v = self.to_numpy()
        i = np.flatnonzero(v != operators(self.semiring)["zero"])
        return i, v[i]

    def dup(self) -> "Vector":
        """A copy."""
        return Vector(_native.vector_as(self._h, self.semiring))

    def as_semiring(self, semiring: str) -> "Vector":
        """The same entries in another semiring of the same value type (a copy)."""
        return Vector(_native.vector_as(self._h, semiring))

    def reduce(self, semiring=None):
        """The semiring sum of the entries (its zero if none), as a Python number."""
        return _native.reduce_vector(self._h, semiring)

    def extract(self, indices) -> "Vector":
        """``x(indices)``: ``indices`` an array, or a vector of ``u32`` values (every
        position's value is an index, the zero's too; one past the end gives no entry).
        Indices may repeat."""
        if isinstance(indices, Vector):
            return Vector(_native.extract_vector(self._h, indices._h))
        return Vector(_native.extract_vector(self._h, _indices(indices)))

    def assign(self, indices, values, accum=None) -> "Vector":
        """``x(indices) = values`` in place: ``indices`` an array or a ``u32`` vector (as
        :meth:`extract`), ``values`` an array or a vector (one per index) or one number for
        all. Without ``accum`` the indices are distinct; with it (a binary operator,
        ``"min"``, ``"plus"``) a value meets what is there, and values meeting at one position
        combine by it (a vector's positions without an entry assign nothing). Returns the
        vector."""
        idx = indices.dup() if indices is self else indices
        idx = idx._h if isinstance(idx, Vector) else _indices(idx)
        if isinstance(values, Vector):
            v = values.dup() if values is self else values
            _native.assign_vector(self._h, idx, v._h, None, accum)
        elif np.ndim(values) == 0:
            _native.assign_vector(self._h, idx, None, values, accum)
        else:
            _native.assign_vector(self._h, idx, _values(values).ravel(), None, accum)
        return self

    def __repr__(self):
        return f"semigraph.Vector({self.size}, {self.nvals} entries, {self.semiring}, {self.backend})"


def _product_out(out, aliases):
    """``out``'s handle, copied first where it is also an input (the inputs are read as they
    were)."""
    return [a.dup() if a is out else a for a in aliases]


def mxv(a: Matrix, x: Vector, semiring=None, *, mask=None, complement=False, accum=False,
        out=None):
    """``y<mask> = accum(y, A x)`` (``GrB_mxv``): ``y(i)`` is the semiring sum over the
    entries ``A(i, k)`` of ``A(i, k) * x(k)``.

    ``mask``: a vector whose entries say where the result is written (``complement``: where
    it has none). ``out``: the vector written in place (positions the mask forbids keep
    their values; ``accum`` adds the product to what is there by the semiring's addition);
    without it a new vector is returned."""
    return _product(a, x, semiring, mask, complement, accum, out, False)


def vxm(x: Vector, a: Matrix, semiring=None, *, mask=None, complement=False, accum=False,
        out=None):
    """``y<mask> = accum(y, x A)`` (``GrB_vxm``): ``y(j)`` is the semiring sum over the
    entries ``A(k, j)`` of ``A(k, j) * x(k)`` (the matrix entry on the left, as in every
    product here). Work in proportion to the entries of ``x`` and their rows. Arguments as
    :func:`mxv`."""
    return _product(a, x, semiring, mask, complement, accum, out, True)


def _product(a, x, semiring, mask, complement, accum, out, transpose):
    if out is not None:
        x, mask = _product_out(out, [x, mask])
    r = _native.mxv(a._h, x._h, semiring, None if mask is None else mask._h, complement,
                    accum, None if out is None else out._h, transpose)
    return out if r is None else Vector(r)


def mxm(a: Matrix, b: Matrix, semiring=None, *, mask=None, complement=False,
        transpose_b=False) -> Matrix:
    """``C<mask> = A B`` (``GrB_mxm``; ``A B^T`` with ``transpose_b``): ``C(i, j)`` is the
    semiring sum over ``k`` of ``A(i, k) * B(k, j)``. ``mask``: a matrix whose entries say
    which positions are computed (``complement``: those it does not hold)."""
    return Matrix(_native.mxm(a._h, b._h, semiring, None if mask is None else mask._h,
                              complement, transpose_b))
