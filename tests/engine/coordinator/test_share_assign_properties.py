"""Share groups' SimpleAssignor: the guarantees Kafka's code gives, checked over seeded random groups that
change step by step (members join and leave, subscriptions move), each step chained from the last.

Homogeneous, ``P`` partitions and ``S`` members, ``D = ceil(S / P)``:
* every subscribed partition has between 1 and ``D`` members, exactly ``D`` = 1 when ``P >= S``;
* member i (``memberIds()`` order) holds between 1 and its desired count; when ``P >= S`` member sizes differ by
  at most one, unless the doubles ask for one partition more than there are (then one member is one short).
Heterogeneous: the same per topic among its subscribers; a member holds nothing of a topic it does not subscribe
to unless nobody subscribes to it (then it keeps what it had).  An unchanged group is a fixed point.
"""

from __future__ import annotations

import random

import pytest

from engine.coordinator.group_spec import subscription_type
from engine.coordinator.share_assignment import share_assign
from engine.coordinator.simple import desired_counts, desired_sharing, hashmap_keys

TOPICS = {"orders": 7, "clicks": 3, "audit-log": 12, "t0": 1}


def _steps(seed: int) -> list[dict]:
    rng = random.Random(seed)
    homogeneous = seed % 2 == 0
    names = rng.sample(sorted(TOPICS), rng.randint(1, 3))
    members = [f"c{i}" for i in range(rng.choice([1, 2, 3, 5, 8, 13, 30]))]
    steps = []
    for _ in range(4):
        subs = {m: names if homogeneous else rng.sample(names, rng.randint(1, len(names))) for m in members}
        steps.append({"topics": TOPICS, "members": [{"id": m, "topics": list(subs[m])} for m in members]})
        gone = set(rng.sample(members, rng.randint(0, len(members) // 3)))
        members = [m for m in members if m not in gone] + [f"n{len(steps)}-{k}" for k in range(rng.randint(0, 4))]
        members = members or ["late"]
    return steps


def _readers(assignment: dict[str, list[str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for member, tps in assignment.items():
        for tp in tps:
            out.setdefault(tp, []).append(member)
    return out


@pytest.mark.parametrize("seed", range(0, 120, 2))
def test_homogeneous_groups_are_balanced(seed: int) -> None:
    for step, result in zip(_steps(seed), share_assign({"steps": _steps(seed)}).steps):
        answer = result.to_json()["assignment"]
        names = step["members"][0]["topics"]
        targets = [f"{t}-{p}" for t in names for p in range(TOPICS[t])]
        order = hashmap_keys([m["id"] for m in step["members"]])
        members, partitions = len(order), len(targets)
        sharing, desired = desired_sharing(members, partitions), desired_counts(members, partitions)
        readers = _readers(answer)
        assert set(readers) == set(targets)
        assert all(1 <= len(readers[tp]) <= sharing for tp in targets)
        short = sum(desired) - sharing * partitions  # 0, or 1 when the doubles overshoot
        for i, member in enumerate(order):
            assert desired[i] - short <= len(answer[member]) <= desired[i]
        if partitions >= members:
            assert all(len(readers[tp]) == 1 for tp in targets)
            sizes = [len(tps) for tps in answer.values()]
            assert max(sizes) - min(sizes) <= 1 + short


@pytest.mark.parametrize("seed", range(1, 120, 2))
def test_heterogeneous_groups_are_balanced_per_topic(seed: int) -> None:
    steps = _steps(seed)
    results = share_assign({"steps": steps}).steps
    for index, (step, result) in enumerate(zip(steps, results)):
        subs = {m["id"]: set(m["topics"]) for m in step["members"]}
        if subscription_type([tuple(t) for t in subs.values()]) != "HETEROGENEOUS":
            continue
        answer = result.to_json()["assignment"]
        readers = _readers(answer)
        order = hashmap_keys(list(subs))
        subscribed = {t for names in subs.values() for t in names}
        for topic in subscribed:
            scope = [m for m in order if topic in subs[m]]
            sharing, desired = desired_sharing(len(scope), TOPICS[topic]), desired_counts(len(scope), TOPICS[topic])
            assert all(1 <= len(readers.get(f"{topic}-{p}", [])) <= sharing for p in range(TOPICS[topic]))
            assert all(set(readers.get(f"{topic}-{p}", [])) <= set(scope) for p in range(TOPICS[topic]))
            for j, member in enumerate(scope):
                held = sum(tp.rsplit("-", 1)[0] == topic for tp in answer[member])
                assert 1 <= held <= desired[j]
        before = results[index - 1].to_json()["assignment"] if index else {}
        for member, tps in answer.items():  # topics nobody subscribes to are kept as they were
            kept = [tp for tp in tps if tp.rsplit("-", 1)[0] not in subscribed]
            assert kept == [tp for tp in before.get(member, []) if tp.rsplit("-", 1)[0] not in subscribed]


@pytest.mark.parametrize("seed", range(0, 40))
def test_an_unchanged_group_keeps_its_assignment(seed: int) -> None:
    step = _steps(seed)[0]
    answers = [r.to_json()["assignment"] for r in share_assign({"steps": [step, step, step]}).steps]
    assert answers[1] == answers[2]
    if seed % 2 == 0:  # homogeneous: balanced at once
        assert answers[0] == answers[1]
