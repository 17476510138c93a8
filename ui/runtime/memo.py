"""One cache for the whole server, bounded by bytes: every session's results share it, least recently used out first.

Streamlit's ``st.cache_resource`` bounds a function's entries by count, and 64 entries of a 100,000-partition
group are gigabytes.  ``memo`` keeps every cached function's entries in one ``ByteLRU``: each value
is measured once, when it goes in (``deep_size``: the objects it reaches, arrays by their buffers, a frozen
figure by its plotted data), and the least recently used entries leave until the total is under
``CACHE_BYTES`` (``KPL_CACHE_MIB`` in the environment, default 512 MiB).  A value larger than a quarter of
the budget is returned but not kept.

Looking a value up hashes the call's arguments as Python does (a ``ScenarioRef`` by its 64-character key), a
dictionary lookup instead of Streamlit's per-call hashing of every argument (a quarter of a warm page's CPU).
Two sessions asking for the same missing value compute it once: the second waits for the first.
Arguments whose parameter name starts with ``_`` are not part of the key (Streamlit's convention).

>>> cache = ByteLRU(1000)
>>> for key in "abcd": cache.put(key, key.upper(), 240)
>>> cache.get("a")
(True, 'A')
>>> cache.put("e", "E", 240); sorted(cache.keys()), cache.total
(['a', 'c', 'd', 'e'], 960)
"""

from __future__ import annotations

import copy as copy_module
import functools
import gc
import inspect
import os
import sys
import threading
import types
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from typing import Any, ParamSpec, Protocol, TypeVar

from ui.runtime.progress import shown

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
MIB = 1 << 20
SAMPLE = 32  # items measured of a large container (deep_size)
CACHE_BYTES = int(os.environ.get("KPL_CACHE_MIB", "512")) * MIB
_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType,
           types.CodeType, types.FrameType)


class ByteLRU:
    """Entries with their sizes in bytes; ``put`` evicts the least recently used until the total fits."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.largest = max_bytes // 4  # one value larger than this would empty the cache for everyone
        self.total = 0
        self._entries: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> tuple[bool, Any]:
        with self._lock:
            entry = self._entries.get(key)
            if entry is None:
                return False, None
            self._entries.move_to_end(key)
            return True, entry[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.total -= old[1]
            if size > self.largest:
                return  # one giant value would empty the cache for everyone: given, not kept
            self._entries[key] = (value, size)
            self.total += size
            while self.total > self.max_bytes and self._entries:
                _, (_, gone) = self._entries.popitem(last=False)
                self.total -= gone

    def discard(self, match: Callable[[Hashable], bool]) -> None:
        with self._lock:
            for key in [k for k in self._entries if match(k)]:
                self.total -= self._entries.pop(key)[1]

    def keys(self) -> list[Hashable]:
        with self._lock:
            return list(self._entries)


STORE = ByteLRU(CACHE_BYTES)
_computing: dict[Hashable, threading.Event] = {}
_computing_lock = threading.Lock()


def deep_size(value: Any) -> int:
    """Bytes held by ``value`` and everything it reaches (each object once; classes, modules and functions are
    shared by the process and not counted).  numpy arrays count their buffers, Arrow arrays and tables theirs,
    pandas frames their deep memory usage, a Plotly figure twice its plotted data (the figure and the dict
    ``ui.frame.figures.frozen`` keeps of it).  A list, tuple, set or dict of more than ``SAMPLE`` items is
    measured on ``SAMPLE`` of them, evenly spread, and scaled: a 100,000-partition assignment is measured in
    milliseconds.

    >>> deep_size(list(range(1000))) == deep_size(list(range(1000, 2000)))
    True
    """
    seen: set[int] = set()
    stack: list[tuple[Any, float]] = [(value, 1.0)]
    total = 0.0
    while stack:
        obj, weight = stack.pop()
        if id(obj) in seen or isinstance(obj, _SHARED):
            continue
        seen.add(id(obj))
        special = _special_size(obj)
        if special is not None:
            total += weight * special
            continue
        total += weight * sys.getsizeof(obj)
        if isinstance(obj, (list, tuple, set, frozenset, dict)) and len(obj) > SAMPLE:
            items = list(obj.items()) if isinstance(obj, dict) else list(obj)
            step = len(items) / SAMPLE
            scale = weight * len(items) / SAMPLE
            chosen = [items[int(i * step)] for i in range(SAMPLE)]
            # a dict's (key, value) pairs are made here: their parts go on the stack, not the pairs, whose
            # addresses Python reuses as soon as they are freed (``seen`` would then skip other objects)
            parts = [part for pair in chosen for part in pair] if isinstance(obj, dict) else chosen
            stack.extend((part, scale) for part in parts)
            continue
        stack.extend((child, weight) for child in gc.get_referents(obj))
    return int(total)


def _special_size(obj: Any) -> int | None:
    module = type(obj).__module__
    if module.startswith("numpy") and hasattr(obj, "nbytes"):
        return int(obj.nbytes) + 112
    if module.startswith("pyarrow") and hasattr(obj, "nbytes"):
        return int(obj.nbytes) + 64
    if module.startswith("pandas") and hasattr(obj, "memory_usage"):
        usage = obj.memory_usage(deep=True)
        return int(getattr(usage, "sum", lambda: usage)())
    if module.startswith("plotly") and hasattr(obj, "to_dict"):
        return 2 * deep_size(obj.to_dict())
    return None


def _key_indices(fn: Callable[..., Any]) -> tuple[list[str], set[int]]:
    names = list(inspect.signature(fn).parameters)
    return names, {i for i, name in enumerate(names) if name.startswith("_")}


def call_key(name: str, names: list[str], skipped: set[int], args: Iterable[Any], kwargs: dict[str, Any]) -> tuple:
    positional = tuple(_hashable(a) for i, a in enumerate(args) if i not in skipped)
    named = tuple(sorted((k, _hashable(v)) for k, v in kwargs.items() if not k.startswith("_")))
    return (name, positional, named)


def _hashable(value: Any) -> Any:
    """``value`` itself when Python can hash it (the usual case: a dictionary lookup), else a digest of its
    pickle (a dataclass holding a dict, say)."""
    try:
        hash(value)
        return value
    except TypeError:
        import hashlib
        import pickle

        return ("sha256", hashlib.sha256(pickle.dumps(value, protocol=5)).hexdigest())


def cached_call(key: Hashable, compute: Callable[[], R], size: Callable[[Any], int] = deep_size) -> R:
    """``compute()`` once per key for the whole server: a hit returns the kept value, a concurrent miss waits
    for the session already computing it.  Exceptions are not kept."""
    while True:
        hit, value = STORE.get(key)
        if hit:
            return value
        with _computing_lock:
            event = _computing.get(key)
            mine = event is None
            if mine:
                event = _computing[key] = threading.Event()
        if mine:
            break
        assert event is not None
        event.wait()
        hit, value = STORE.get(key)
        if hit:
            return value
        # the other session failed, was stopped, or its value was too large to keep: compute it here
        with _computing_lock:
            if _computing.get(key) is None:
                _computing[key] = event = threading.Event()
                break
    assert event is not None
    try:
        computed = compute()
        STORE.put(key, computed, size(computed))
        return computed
    finally:
        with _computing_lock:
            _computing.pop(key, None)
        event.set()


class Memoized(Protocol[P, R_co]):
    """A ``memo``-decorated function: called as the function it wraps (same parameters, same result type), and
    ``clear()`` drops its entries."""

    memo_name: str

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...

    def clear(self) -> None: ...


def memo(spinner: str | bool = False, copy: bool = False, size: Callable[[Any], int] = deep_size
         ) -> Callable[[Callable[P, R]], Memoized[P, R]]:
    """Cache a function's results in ``STORE`` (``spinner``, a text, is shown while a missing value is computed:
    ``ui.runtime.progress``); ``f.clear()`` drops its entries.  ``copy``: every call
    gets its own deep copy (a value a page may modify, as ``st.cache_data`` gave); ``size``: how to measure
    a value (``deep_size``)."""
    def decorate(fn: Callable[P, R]) -> Memoized[P, R]:
        name = f"{fn.__module__}.{fn.__qualname__}"
        names, skipped = _key_indices(fn)

        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            key = call_key(name, names, skipped, args, kwargs)
            hit, value = STORE.get(key)
            if not hit:
                value = cached_call(key, lambda: _with_spinner(spinner, lambda: fn(*args, **kwargs)), size)
            return _copied(value) if copy else value

        wrapper.clear = lambda: STORE.discard(lambda k: isinstance(k, tuple) and k[:1] == (name,))  # type: ignore
        wrapper.memo_name = name  # type: ignore[attr-defined]
        return wrapper  # type: ignore[return-value]
    return decorate


def clear() -> None:
    """Drop every cached value (tests)."""
    STORE.discard(lambda key: True)


def _copied(value: Any) -> Any:
    if type(value).__module__.startswith("pyarrow"):
        return value  # immutable
    return copy_module.deepcopy(value)


def _with_spinner(text: str | bool, compute: Callable[[], Any]) -> Any:
    if not isinstance(text, str) or not text:
        return compute()
    return shown().computing(text, compute)
