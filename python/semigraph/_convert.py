"""Values as the native functions take them: real numbers only, exact (no rounding on the
way in), in a contiguous array of one of the three types the native side reads."""

import numpy as np


def _real(data):
    """Refuses what has no real value: complex numbers (their imaginary part would be
    dropped) and objects."""
    if np.iscomplexobj(data):
        raise TypeError(
            f"complex values ({data.dtype}) are not weights: give their real part "
            "(A.real) or their magnitude (abs(A)) explicitly"
        )
    if data.dtype.kind not in "biuf":
        raise TypeError(f"values of type {data.dtype} are not numbers")


def _values(data):
    """The values as the native functions take them, exact: float64 for reals (float16 and
    float32 widen exactly), int64 for integers and booleans, uint64 kept; contiguous."""
    data = np.asarray(data)
    _real(data)
    if data.dtype.kind == "f":
        return np.ascontiguousarray(data, dtype=np.float64)
    if data.dtype == np.uint64:
        return np.ascontiguousarray(data)
    return np.ascontiguousarray(data, dtype=np.int64)
