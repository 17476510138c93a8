"""How the runtime shows work a page waits for, without knowing the page: a plain call or wait until the page
frame installs its display (``ui.frame.door``: the spinner, the status box with Cancel).

The runtime floor never imports Streamlit; it asks ``shown()`` instead::

    >>> shown().computing("Computing…", lambda: 6 * 7)
    42
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Display(Protocol):
    """What a page shows while the runtime computes (``computing``) or waits for worker jobs (``waiting``)."""

    def computing(self, text: str, compute: Callable[[], T]) -> T: ...

    def waiting(self, jobs: Sequence[Any], what: str) -> None: ...


class Plain:
    """Nothing shown: the call made, the jobs waited for (outside a page, and before a frame installs one)."""

    def computing(self, text: str, compute: Callable[[], T]) -> T:
        return compute()

    def waiting(self, jobs: Sequence[Any], what: str) -> None:
        for job in jobs:
            job.done.wait()


_display: list[Display] = [Plain()]


def install(display: Display) -> None:
    """Make ``display`` the one every computation of this process is shown by."""
    _display[0] = display


def shown() -> Display:
    """The installed display."""
    return _display[0]
