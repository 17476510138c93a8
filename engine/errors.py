"""Errors the engine raises at its boundary: one line, naming the field and the bad value.

Every one is an ``EngineError``: the CLI turns it into exit code 2 and one stderr line, the dashboard
into an inline message, so callers catch ``EngineError`` alone, never a tuple.  ``KafkaError`` is the
root of the errors where Kafka's own code would throw (``PartitionAssignorException``,
``AdminUtils``' exceptions): ``str(KafkaAdminError("InvalidPartitionsException", "..."))`` starts with
the Java exception's name, as the CLI reports it.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: bad input that the CLI reports with exit code 2 and the UI shows inline."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(str(message).split()))  # always one line


class ScenarioError(EngineError):
    """A scenario (topics, members, subscriptions, steps) is invalid."""


class LimitError(EngineError):
    """An input is larger than the engine's stated limits (a size, a count or a work budget)."""


class InputError(EngineError):
    """A document or pasted text that cannot be read within the limits (``engine.inputs``)."""


class KafkaError(EngineError):
    """What Kafka's own code throws for this input (the answer is Kafka's error, not a lab refusal)."""
