"""Build an imported scenario directly, with the scenario model's own rules, fast for large groups.

``parse_scenario`` validates every member's subscription name by name; an imported group of 2,000
members that all read 2,000 topics has 4,000,000 of them and takes seconds.  Here every member
subscribes to the same, already validated topic tuple, so the checks are per topic and per member.
The rules are those of ``engine.scenario`` (the same constants and ``check_topic_name``), and the
tests assert ``parse_scenario(scenario_to_json(s)) == s`` for every result, so the two cannot drift.

Worked example (asserted in tests/engine/tools/test_import_scenario.py)::

    >>> s = build_scenario("g", "", {"t": 2}, [("c1", None)], {}, {"t": [1.0, 0.0]})
    >>> s.first.members[0].topics, s.weights
    (('t',), {'t': (1.0, 0.0)})
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from engine.errors import LimitError, ScenarioError
from engine.scenario import (
    MAX_MEMBER_ID_LENGTH,
    MAX_MEMBERS,
    MAX_NAME_LENGTH,
    MAX_PARTITIONS_PER_TOPIC,
    MAX_PARTITIONS_TOTAL,
    MAX_TOPICS,
    GroupState,
    Member,
    Scenario,
    check_topic_name,
)


def check_name(where: str, name: str, limit: int = MAX_NAME_LENGTH) -> None:
    """The scenario model's rule for ids and names: not blank, at most ``limit``, no control characters."""
    if not name.strip():
        raise ScenarioError(f"{where}: must not be empty, got {name!r}")
    if len(name) > limit:
        raise ScenarioError(f"{where}: longer than {limit} characters ({len(name)})")
    if any(ord(c) < 32 for c in name):
        raise ScenarioError(f"{where}: control characters are not allowed, got {name[:60]!r}")


def check_topics(topics: Mapping[str, int]) -> None:
    if len(topics) > MAX_TOPICS:
        raise LimitError(f"import: at most {MAX_TOPICS:,} topics, got {len(topics):,}")
    for name, count in topics.items():
        check_topic_name(f"topics[{name!r}]", name)
        if not 1 <= count <= MAX_PARTITIONS_PER_TOPIC:
            raise LimitError(
                f"import: topic {name!r}: partitions must be 1..{MAX_PARTITIONS_PER_TOPIC:,}, got {count:,}"
            )
    total = sum(topics.values())
    if total > MAX_PARTITIONS_TOTAL:
        raise LimitError(f"import: at most {MAX_PARTITIONS_TOTAL:,} partitions, got {total:,}")


def _members(members: Sequence[tuple[str, str | None]], topics: tuple[str, ...]) -> tuple[Member, ...]:
    if len(members) > MAX_MEMBERS:
        raise LimitError(f"import: at most {MAX_MEMBERS:,} members, got {len(members):,}")
    ids: set[str] = set()
    instances: set[str] = set()
    out = []
    for i, (member_id, instance_id) in enumerate(members):
        check_name(f"members[{i}].id", member_id, MAX_MEMBER_ID_LENGTH)
        if member_id in ids:
            raise ScenarioError(f"members[{i}].id: duplicate {member_id!r}")
        ids.add(member_id)
        if instance_id is not None:
            check_name(f"members[{i}].instance_id", instance_id)
            if instance_id in instances:
                raise ScenarioError(f"members[{i}].instance_id: duplicate {instance_id!r}")
            instances.add(instance_id)
        out.append(Member(member_id, topics, None, instance_id))
    return tuple(out)


def _racks(racks: Mapping[str, Sequence[Sequence[str]]], topics: Mapping[str, int]) -> dict[str, tuple]:
    for topic, rows in racks.items():
        if topics.get(topic) != len(rows):
            raise ScenarioError(
                f"partition_racks[{topic!r}]: needs one rack list per partition "
                f"({topics.get(topic)}), got {len(rows)}"
            )
    return {t: tuple(map(tuple, rows)) for t, rows in racks.items()}


def _weights(
    weights: Mapping[str, Sequence[float]], topics: Mapping[str, int]
) -> dict[str, tuple[float, ...]]:
    out = {}
    for topic, values in weights.items():
        if topics.get(topic) != len(values):
            raise ScenarioError(f"weights[{topic!r}]: needs {topics.get(topic)} values, got {len(values)}")
        if not all(v >= 0 and math.isfinite(v) for v in values):
            raise ScenarioError(f"weights[{topic!r}]: every value must be a finite number >= 0")
        out[topic] = tuple(float(v) for v in values)
    return out


def build_scenario(
    name: str,
    description: str,
    topics: Mapping[str, int],
    members: Sequence[tuple[str, str | None]],
    racks: Mapping[str, Sequence[Sequence[str]]],
    weights: Mapping[str, Sequence[float]],
) -> Scenario:
    """One step: ``members`` as ``(member id, group.instance.id)``, each subscribed to every topic."""
    check_topics(topics)
    state = GroupState(
        topics=dict(topics), members=_members(members, tuple(topics)), partition_racks=_racks(racks, topics)
    )
    return Scenario(steps=(state,), name=name, description=description, weights=_weights(weights, topics))
