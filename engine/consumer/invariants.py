"""Checks every assignment must pass, used by the tests and shown by the UI.

``violations`` lists what is wrong (empty when valid): a partition owned twice, a partition given
to a member that does not subscribe to its topic, a subscribed partition left unowned.
"""

from __future__ import annotations

from engine.consumer.assignment import AssignmentView as Assignment
from engine.scenario import GroupState, TopicPartition


def violations(state: GroupState, assignment: Assignment) -> list[str]:
    """Validity problems of an assignment for a group state (Kafka's guarantees)."""
    problems: list[str] = []
    subscribed = {m.id: set(m.topics) for m in state.members}
    seen: dict[TopicPartition, str] = {}
    for member, partitions in assignment.items():
        for tp in partitions:
            if tp in seen:
                problems.append(f"{tp} owned by both {seen[tp]!r} and {member!r}")
            seen[tp] = member
            if tp.topic not in subscribed.get(member, set()):
                problems.append(f"{tp} given to {member!r}, which does not subscribe to {tp.topic!r}")
            if tp.partition >= state.topics.get(tp.topic, 0):
                problems.append(f"{tp} does not exist")
    wanted = {t for topics in subscribed.values() for t in topics if t in state.topics}
    for topic in wanted:
        for p in range(state.topics[topic]):
            if TopicPartition(topic, p) not in seen:
                problems.append(f"{TopicPartition(topic, p)} is subscribed but unowned")
    return problems


def spread(assignment: Assignment) -> int:
    """Max minus min partitions per member (0 for an empty group)."""
    sizes = [len(v) for v in assignment.values()]
    return max(sizes) - min(sizes) if sizes else 0


