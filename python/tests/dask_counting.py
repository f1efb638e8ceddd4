"""A model class that counts, per process, how often a model is loaded from bytes (which is
what unpickling one does): the Dask tests ask every worker for its count. A module of its
own, so that the workers (new processes, with the tests' directory on their path) import
the same class and counter by name."""

from __future__ import annotations

from typing import Any

import rapidpqp as rp

_LOADS = [0]


class CountingModel(rp.Model):
    __slots__ = ()

    @classmethod
    def from_bytes(cls, data: Any) -> "CountingModel":
        _LOADS[0] += 1
        return super().from_bytes(data)


def loads() -> int:
    """Models loaded from bytes in this process so far."""
    return _LOADS[0]
