"""Pausing Python's cyclic garbage collector around allocation-heavy work.

An assignment of a million partitions allocates a million small tuples and no reference cycles;
the collector would rescan the growing heap many times over for nothing.  Reference counting
still frees everything; the collector resumes (and runs once) afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
