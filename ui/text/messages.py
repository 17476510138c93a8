"""One convention for positions in messages: 1-based for people, field paths for programs.

The engine names a bad value by its JSON field path, 0-based as the CLI's contract has it
(``members[2].id``: the third member).  A page shows the same message with positions counted from 1, the
way the builder's tables count their rows::

    >>> for_people("steps[1].members[2].id: duplicate 'C1'")
    "step 2, member 3, id: duplicate 'C1'"
    >>> for_people("weights['t0'][3]: must be a finite number >= 0, got -1")
    "weights['t0'][3]: must be a finite number >= 0, got -1"

Only a list index after a field name is renumbered; an index after a key (``weights['t0'][3]``) is a
partition number, which Kafka counts from 0, and stays.
"""

from __future__ import annotations

import re

_INDEXED = re.compile(r"(?<![\w\]])([A-Za-z_]+)\[(\d+)\](\.)?")


def _singular(name: str) -> str:
    return name[:-1] if name.endswith("s") and len(name) > 1 else name


def for_people(message: str) -> str:
    """``message`` with every ``name[i]`` field path segment written as ``name i+1`` (singular)."""
    def one(m: re.Match[str]) -> str:
        return f"{_singular(m[1]).replace('_', ' ')} {int(m[2]) + 1}" + (", " if m[3] else "")

    return _INDEXED.sub(one, message)
