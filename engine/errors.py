"""Errors the engine raises at its boundary: one line, naming the field and the bad value."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: bad input that the CLI reports with exit code 2 and the UI shows inline."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))  # always one line


class ScenarioError(EngineError):
    """A scenario (topics, members, subscriptions, steps) is invalid."""


class LimitError(EngineError):
    """An input is larger than the engine's stated limits."""
