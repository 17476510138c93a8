"""Which Kafka the producer and log answers follow, and whose defaults they used.

The behaviour is Kafka's 4.0 code line at the commit the vectors were made from (``../shared/vectors/
produce.README.md``).  Two default tables exist for it: the code line's own (``linger.ms`` 0, what the vectors
and so the CLI use when a property is left out) and released 4.0's (``linger.ms`` 5, KIP-1030: what the pages
show).  Every ``produce``, ``log`` and ``log-config`` answer says both in its ``follows`` field.

Worked example::

    >>> follows(RELEASED)
    'Kafka 4.0 code line (apache/kafka 1eb7644349cb); defaults: released 4.0 (linger.ms 5, KIP-1030)'
    >>> release_named("code-line") is CODE_LINE
    True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine.errors import ScenarioError

KAFKA_COMMIT: Final = "1eb7644349cb07139d6a3c1ad1986979647cac99"  # apache/kafka trunk, 2024-10-25, 4.0.0-SNAPSHOT
BEHAVIOUR: Final = f"Kafka 4.0 code line (apache/kafka {KAFKA_COMMIT[:12]})"


@dataclass(frozen=True)
class Release:
    """A table of defaults: its input name and how an answer names it."""

    key: str
    label: str


CODE_LINE: Final = Release("code-line", "4.0 code line (linger.ms 0)")
RELEASED: Final = Release("released", "released 4.0 (linger.ms 5, KIP-1030)")
RELEASES: Final = {r.key: r for r in (CODE_LINE, RELEASED)}


def release_named(name: object) -> Release:
    """The ``defaults`` input field: ``"code-line"`` (the CLI's default) or ``"released"``."""
    if not isinstance(name, str) or name not in RELEASES:
        raise ScenarioError(f"defaults: must be one of {', '.join(map(repr, RELEASES))}, got {name!r}")
    return RELEASES[name]


def follows(release: Release) -> str:
    """The ``follows`` line of an answer."""
    return f"{BEHAVIOUR}; defaults: {release.label}"
