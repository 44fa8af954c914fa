"""Flat int64 arrays made of named fields: the one way Leyden lays out its kernel data.

numba pays a reference-count round trip for every array argument of every call (and
the search calls itself once per node), so each family of kernel data is one flat
int64 array: the game table ``G`` (movegen/layout.py), the search state ``ss``
(search/state.py) and the evaluation tables ``ev`` (search/evaluate.py). A
``FlatLayout`` declares such an array's fields once, each with a shape; offsets,
strides and the total size are computed from the declaration, never written by hand.
Kernels read fields through module-level offset constants (numba freezes them into
the compiled code) and small accessor kernels that apply the strides.
"""
from __future__ import annotations

import math

import numpy as np


class FlatLayout:
    """Fields ``(name, shape)`` one after another; a shape is an int, a tuple, or ``()``
    for a single scalar slot."""

    def __init__(self, fields):
        self.offset: dict[str, int] = {}
        self.shape: dict[str, tuple[int, ...]] = {}
        end = 0
        for name, shape in fields:
            if name in self.offset:
                raise ValueError(f"field {name} declared twice")
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            self.offset[name], self.shape[name] = end, shape
            end += math.prod(shape)
        self.size = end

    def length(self, name: str) -> int:
        return math.prod(self.shape[name])

    def stride(self, name: str, axis: int) -> int:
        """Elements between neighbours along ``axis`` of field ``name`` (row-major)."""
        return math.prod(self.shape[name][axis + 1:])

    def end(self, name: str) -> int:
        return self.offset[name] + self.length(name)

    def view(self, array: np.ndarray, name: str) -> np.ndarray:
        """Field ``name`` of ``array`` as a numpy view of its shape (Python side)."""
        start = self.offset[name]
        return array[start:start + self.length(name)].reshape(self.shape[name] or (1,))

    def put(self, array: np.ndarray, name: str, values) -> None:
        """Write ``values`` (at most the field's length, flattened) at the field's start."""
        values = np.asarray(values, np.int64).ravel()
        if values.size > self.length(name):
            raise ValueError(f"{values.size} values for field {name} of {self.length(name)}")
        start = self.offset[name]
        array[start:start + values.size] = values
