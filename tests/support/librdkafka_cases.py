"""Random librdkafka groups for the oracle, and the oracle's records as ``assign`` vector cases.

``random_spec`` draws a group (1-3 topics of 1-12 partitions, 3-5 members, some static, some with
racks on a cluster with replica racks, heterogeneous subscriptions) and 1-2 steps: the last
member leaves, a member joins, a member changes its subscription.

``record_to_case`` turns a ``GroupRecord`` into a case of the shape of
``../shared/vectors/assign.json`` (``steps`` with members in JoinGroup order under their REAL
member ids, ``expected`` per step) plus ``"client": "librdkafka"`` and what only the real group
shows: ``assignor_rounds`` (the leader's raw assignor output per round, in its order).
``compare_case`` checks the engine against one case and returns the differences.
"""

from __future__ import annotations

import random
from typing import Any

from engine.consumer.group import count_moves
from engine.consumer.librdkafka.model import LibrdkafkaFailure
from engine.consumer.librdkafka.replay import COOPERATIVE, LibrdkafkaGroupReplay
from engine.scenario import TopicPartition, parse_scenario
from support.librdkafka_oracle import (
    GroupRecord,
    GroupSpec,
    Join,
    Leave,
    MemberSpec,
    StepRecord,
    Subscribe,
)

STRATEGIES = ("range", "roundrobin", "cooperative-sticky")
RACKS = ("r0", "r1", "r2")


def _subset(rng: random.Random, topics: list[str]) -> list[str]:
    chosen = [t for t in topics if rng.random() < 0.6]
    return chosen or [rng.choice(topics)]


def _member(rng: random.Random, label: str, topics: list[str], racks: list[str],
            statics: list[str]) -> MemberSpec:
    subscription = list(topics) if rng.random() < 0.4 else _subset(rng, topics)
    rack = rng.choice(racks + ["rx"]) if racks and rng.random() < 0.7 else None
    instance = None
    if rng.random() < 0.3:
        instance = rng.choice([s for s in "abcdefghijklmnop" if s not in statics]) + "-static"
        statics.append(instance[0])
    return MemberSpec(label, subscription, rack, instance)


def random_spec(rng: random.Random, strategy: str, group_id: str) -> GroupSpec:
    """A random group and 1-2 steps (see the module docstring)."""
    topics = {f"t{i}": rng.randint(1, 12) for i in range(rng.randint(1, 3))}
    names = list(topics)
    broker_racks: dict[int, str] = {}
    replication = 1
    if rng.random() < 0.5:
        distinct = rng.randint(2, 3)
        broker_racks = {b: RACKS[(b - 1) % distinct] for b in (1, 2, 3)}
        replication = rng.randint(1, 3)
    racks = sorted(set(broker_racks.values()))
    statics: list[str] = []
    members = [_member(rng, f"c{i}", names, racks, statics) for i in range(rng.randint(3, 5))]
    steps: list[Any] = []
    live = {m.label: m.topics for m in members}  # label -> current subscription, join order
    wanted = rng.randint(1, 2)
    while len(steps) < wanted:
        kind = rng.choice(["leave", "join", "subscribe"])
        if kind == "leave" and len(live) > 2:
            label = list(live)[-1]
            steps.append(Leave(label))
            del live[label]
        elif kind == "join":
            new = _member(rng, f"c{len(members) + len(steps)}", names, racks, statics)
            steps.append(Join(new))
            live[new.label] = new.topics
        else:
            label = rng.choice(list(live))
            options = [o for o in [[n] for n in names] + [names] + [_subset(rng, names)]
                       if sorted(o) != sorted(live[label])]
            if options:
                live[label] = rng.choice(options)
                steps.append(Subscribe(label, live[label]))
    return GroupSpec(group_id, strategy, topics, members, steps, 3, broker_racks, replication)


# ---------------------------------------------------------------- records -> cases


def _tps(pairs: list[tuple[str, int]]) -> list[str]:
    return [f"{t}-{p}" for t, p in pairs]


def _first_round(record: StepRecord, before: dict[str, set[tuple[str, int]]],
                 step: Any) -> tuple[dict[str, Any], ...]:
    """(revoked_before_join, first_round_assignment, revoked_first_round) from each member's own
    callbacks, in its own order (callbacks of different members are not ordered in time).

    Only the member whose subscription changed revokes before joining: its first callback, when
    it revokes partitions of topics it no longer subscribes to.  Then each member's first round
    is its revocations up to its first ``on_assign`` (one per round, possibly empty).
    """
    revoked_before: dict[str, list[str]] = {}
    first: dict[str, list[str]] = {}
    revoked_first: dict[str, list[str]] = {}
    for member in record.members:
        label = member.label
        events = list(record.events[label])
        early: set[tuple[str, int]] = set()
        if (isinstance(step, Subscribe) and step.label == label and events and events[0][1] != "assign"
                and all(t not in step.topics for t, _ in events[0][2])):
            early = set(events.pop(0)[2])
        held = set(before.get(label, set())) - early
        lost: set[tuple[str, int]] = set()
        got: set[tuple[str, int]] = set()
        for _, kind, tps in events:
            if kind == "assign":
                got = set(tps)
                break
            lost |= set(tps)
        member_id = record.member_ids[label]
        revoked_before[member_id] = _tps(sorted(early))
        revoked_first[member_id] = _tps(sorted(lost))
        first[member_id] = _tps(sorted((held - lost) | got))
    return revoked_before, first, revoked_first


def _member_json(record: StepRecord, member: MemberSpec) -> dict[str, Any]:
    return {"id": record.member_ids[member.label], "topics": list(member.topics), "rack": member.rack,
            "instance_id": member.instance_id}


def record_to_case(record: GroupRecord, name: str) -> dict[str, Any]:
    """A vector case (shape of ``assign.json`` plus ``client`` and ``assignor_rounds``)."""
    spec = record.spec
    steps, expected = [], []
    previous: dict[str, list[TopicPartition]] | None = None
    before: dict[str, set[tuple[str, int]]] = {}
    generation = 0
    leader = ""
    for index, step in enumerate(record.steps):
        leader = step.rounds[-1].leader if step.rounds else leader
        state: dict[str, Any] = {"topics": dict(spec.topics),
                                 "members": [_member_json(step, m) for m in step.members]}
        if record.partition_racks:
            state["partition_racks"] = record.partition_racks
        steps.append(state)
        raws = [{m: _tps(tps) for m, tps in r.raw.items()} for r in step.rounds]
        if not step.converged:  # librdkafka never settles: only its rounds are evidence
            expected.append({"converged": False, "rounds": len(step.rounds), "assignor_rounds": raws,
                             "leader": leader})
            break
        final = {step.member_ids[m.label]: [TopicPartition(t, p) for t, p in step.assignment[m.label]]
                 for m in step.members}
        moved, moved_remaining = count_moves(previous, final)
        previous = final
        generation += len(step.rounds)
        out: dict[str, Any] = {
            "assignment": {m: [str(tp) for tp in tps] for m, tps in final.items()},
            "moved": moved,
            "moved_from_remaining": moved_remaining,
            "generation": generation,
            "leader": leader,
            "assignor_rounds": raws,
        }
        if spec.strategy in COOPERATIVE:
            change = spec.steps[index - 1] if index else None
            revoked_before, first, revoked_first = _first_round(step, before, change)
            out.update({"first_round_assignment": first, "revoked_before_join": revoked_before,
                        "revoked_first_round": revoked_first, "rounds": len(step.rounds), "converged": True})
        expected.append(out)
        before = {label: set(tps) for label, tps in step.assignment.items()}
    if record.crashed:
        crash = _crash_state(record)
        if crash is not None:
            steps.append(crash)
            expected.append({"crashed": record.crashed})
    if not steps:
        raise ValueError(f"{name}: crashed while forming ({record.crashed}): nothing to check")
    case: dict[str, Any] = {"name": name, "strategy": spec.strategy, "client": "librdkafka",
                            "topics": steps[0]["topics"], "members": steps[0]["members"]}
    if record.partition_racks:
        case["partition_racks"] = record.partition_racks
    case.update({"steps": steps, "origin": "librdkafka-mock", "step_ops": [_op(s) for s in spec.steps],
                 "expected": expected})
    if record.crashed:
        case["crashed"] = record.crashed
    return case


def _crash_state(record: GroupRecord) -> dict[str, Any] | None:
    """The step librdkafka crashed in, when every member's id and the JoinGroup order are known:
    the previous order without the member that left, or with the joiner appended."""
    if not record.steps:
        return None
    previous = record.steps[-1]
    step = record.spec.steps[len(record.steps) - 1]
    ids = {**previous.member_ids, **record.member_ids}
    members = list(previous.members)
    if isinstance(step, Leave):
        members = [m for m in members if m.label != step.label]
    elif isinstance(step, Subscribe):
        members = [MemberSpec(m.label, step.topics, m.rack, m.instance_id) if m.label == step.label else m
                   for m in members]
    else:
        members.append(step.member)
    if any(m.label not in ids for m in members):
        return None
    state: dict[str, Any] = {"topics": dict(record.spec.topics),
                             "members": [{"id": ids[m.label], "topics": list(m.topics), "rack": m.rack,
                                          "instance_id": m.instance_id} for m in members]}
    if record.partition_racks:
        state["partition_racks"] = record.partition_racks
    return state


def _op(step: Any) -> list[str]:
    if isinstance(step, Leave):
        return ["leave", step.label]
    if isinstance(step, Join):
        return ["join", step.member.label]
    assert isinstance(step, Subscribe)
    return ["subscribe", step.label, *step.topics]


# ---------------------------------------------------------------- engine vs case


def _sets(assignment: dict[str, list[Any]]) -> dict[str, list[str]]:
    return {m: sorted(str(tp) for tp in tps) for m, tps in assignment.items()}


def compare_case(case: dict[str, Any], check_order: bool = True) -> list[str]:
    """Differences between the engine's librdkafka replay and a case (empty when it matches).

    Assignments, first-round assignments and revocations are compared as sets per member;
    ``assignor_rounds`` (the leader's raw output) exactly, list order included, when
    ``check_order``; rounds, generation, leader and moves as numbers/ids.  Where the engine says
    librdkafka reads freed memory (``LibrdkafkaFailure.undefined``) and the real consumers went on,
    the outcome was undefined: the comparison stops there without a difference (a recorded crash
    the engine does not predict, or a certain failure where real consumers answered, is one).
    """
    diffs: list[str] = []
    group = LibrdkafkaGroupReplay(case["strategy"])
    for i, (state, want) in enumerate(zip(parse_scenario(case).steps, case["expected"])):
        where = f"{case['name']} step {i}"
        if "crashed" in want:
            try:
                group.step(state)
                diffs.append(f"{where}: librdkafka crashed ({want['crashed']}); the engine answers")
            except LibrdkafkaFailure:
                pass
            break
        try:
            got = group.step(state)
        except LibrdkafkaFailure as exc:
            if not exc.undefined:  # a certain crash where the real consumers answered
                diffs.append(f"{where}: the engine says librdkafka fails ({exc}); the real consumers answered")
            break  # freed memory read without a crash this time: undefined, nothing more to compare
        raws = [{m: [str(tp) for tp in tps] for m, tps in r.items()} for r in got.assignor_rounds]
        if want.get("converged") is False:
            if got.converged:
                diffs.append(f"{where}: engine converges in {got.rounds} rounds, librdkafka does not")
            seen = want["assignor_rounds"]
            if [list(r.items()) for r in raws[:len(seen)]] != [list(r.items()) for r in seen]:
                diffs.append(f"{where}: first {len(seen)} rounds {raws[:len(seen)]} != {seen}")
            break
        if _sets(got.assignment) != _sets(want["assignment"]):
            diffs.append(f"{where}: assignment {_sets(got.assignment)} != {_sets(want['assignment'])}")
        for key in ("moved", "moved_from_remaining", "generation", "leader"):
            if getattr(got, key) != want[key]:
                diffs.append(f"{where}: {key} {getattr(got, key)!r} != {want[key]!r}")
        want_raws = want.get("assignor_rounds")
        if want_raws is not None:
            if len(raws) != len(want_raws):
                diffs.append(f"{where}: {len(raws)} rounds != {len(want_raws)}")
            elif check_order and [list(r.items()) for r in raws] != [list(r.items()) for r in want_raws]:
                diffs.append(f"{where}: assignor output order {raws} != {want_raws}")
        if case["strategy"] in COOPERATIVE:
            for key in ("first_round_assignment", "revoked_before_join", "revoked_first_round"):
                mine = getattr(got, key) or {}
                theirs = want.get(key)
                if theirs is not None and _sets({m: mine.get(m, []) for m in theirs}) != _sets(theirs):
                    diffs.append(f"{where}: {key} {_sets(mine)} != {_sets(theirs)}")
            if got.rounds != want.get("rounds", got.rounds):
                diffs.append(f"{where}: rounds {got.rounds} != {want['rounds']}")
    return diffs
