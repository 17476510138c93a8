"""The share groups' cases of ``python -m bench cost``: ``share-assign`` (the assignor and its JSON answer) on
groups of every size, chained steps whose partitions change (members keep what nobody subscribes to any more) and
many differing subscriptions (members changing them too); a share partition's delivery (the case read and run:
scale cases, long logs, ticks); and ``share-deliver``'s answer (its worst case, one state run per record after
every event; ticks).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from bench.cost.cases import Case, Prepared, if_fitted
from bench.share_delivery import batches_case as share_batches_case
from bench.share_delivery import case_counts as share_case_counts
from bench.share_delivery import scale_case as share_scale_case
from bench.share_delivery import ticks_case as share_ticks_case
from bench.share_delivery import worst_answer_case
from engine import cost
from engine.coordinator.share_assignment import share_assign
from engine.cost import computations
from engine.cost.share import ShareMember, ShareStep, given_counts, share_step_shapes
from engine.inputs import encode_json
from engine.share.case import parse_case, window_cap
from engine.share.replay import replay as replay_share
from engine.share.replay import run as run_share

# (partitions, members, topics, differing subscriptions, steps, first step's members given what they hold)
SHARE_ASSIGN_FIT = [(1_000, 50, 10, False, 1, False), (10_000, 50, 10, False, 1, False),
                    (50_000, 200, 20, False, 1, False), (10_000, 2_000, 100, False, 1, False),
                    (10_000, 2_000, 100, True, 1, False), (20_000, 500, 200, True, 1, False),
                    (5_000, 5_000, 10, False, 1, False), (10_000, 200, 10, False, 4, False),
                    (20_000, 1_000, 50, True, 3, False), (20_000, 500, 20, False, 1, True),
                    (100_000, 500, 50, False, 1, False), (10_000, 2_000, 500, True, 1, False),
                    (50_000, 1_000, 100, False, 2, False), (200, 5_000, 2, False, 3, False),
                    (1_000, 3_000, 10, True, 3, False)]
SHARE_ASSIGN_HELD = [(100_000, 1_000, 100, True, 2, False), (200_000, 2_000, 100, False, 2, False),
                     (10_000, 2_000, 1_000, True, 1, False), (50_000, 500, 50, False, 5, True),
                     (50, 10_000, 1, False, 2, False)]
# chained steps whose partitions change (members, steps, topics a step, partitions a topic, how the topics change)
SHARE_CHAIN_FIT = [(300, 60, 1, 10, "grow"), (300, 60, 5, 5, "grow-differing"), (200, 100, 2, 20, "grow-differing"),
                   (1_000, 20, 3, 50, "grow"), (300, 40, 1, 10, "move"), (500, 30, 3, 20, "move"),
                   (300, 50, 1, 10, "move-churn"), (2_000, 15, 1, 100, "move")]
SHARE_CHAIN_HELD = [(300, 60, 5, 5, "grow"), (200, 100, 1, 10, "move"), (100, 120, 2, 5, "move"),
                    (500, 40, 2, 20, "move-churn")]
# many differing subscriptions (members, topics, partitions a topic, topics a member, steps, resubscribe each step)
SHARE_DIFFERING_FIT = [(1_000, 5_000, 10, 100, 1, False), (3_000, 2_000, 50, 200, 1, False),
                       (200, 1_000, 100, 50, 1, False), (5_000, 10_000, 5, 100, 1, False),
                       (500, 10_000, 20, 1_000, 1, False), (200, 5_000, 1, 300, 2, True),
                       (100, 5_000, 1, 600, 2, True)]
SHARE_DIFFERING_HELD = [(2_000, 10_000, 10, 300, 1, False), (1_000, 10_000, 10, 500, 2, False),
                        (150, 10_000, 1, 700, 2, True)]
# share delivery, the case read and run: scale cases (events, max.record.locks), log batches (batches, fetches),
# ticks (events); the CLI answer (every step's state written): its worst case (records, ticks) and ticks (events)
SHARE_DELIVERY_FIT = [(500, 500), (2_000, 200), (5_000, 2_000), (2_000, 10_000), (10_000, 1_000), (20_000, 1_000),
                      (40_000, 2_000)]
SHARE_DELIVERY_HELD = [(20_000, 2_000), (8_000, 8_000), (60_000, 4_000)]
SHARE_BATCHES_FIT = [(100_000, 10), (400_000, 50), (1_000_000, 10)]
SHARE_BATCHES_HELD = [(2_000_000, 20)]
SHARE_TICKS_FIT = [(100_000,), (400_000,)]
SHARE_TICKS_HELD = [(1_000_000,)]
SHARE_ANSWER_FIT = [(4_000, 60), (5_000, 40), (19_000, 24), (1_000, 200), (10_000, 10), (100_000, 10),
                    (50_000, 40), (150_000, 30)]  # the largest: its peak per cell is the largest answers'
SHARE_ANSWER_HELD = [(30_000, 30), (8_000, 100), (200_000, 40)]
SHARE_ANSWER_TICKS_FIT = [(300_000,), (1_000_000,)]
SHARE_ANSWER_TICKS_HELD = [(2_000_000,)]


def share_assign_doc(partitions: int, members: int, topics: int, differ: bool, steps: int,
                     given: bool = False) -> dict[str, Any]:
    """A share-assign case: ``members`` (a quarter on a random half of the topics when ``differ``); each
    further step drops the first member (its partitions chained); ``given``: the first step's members hold
    the partitions round-robin (``current_assignment``)."""
    names = [f"topic-{t}" for t in range(topics)]
    rng = random.Random(7)
    per_topic = max(1, partitions // topics)
    rows: list[dict[str, Any]] = [{"id": f"share-consumer-{m}-{m * 7919 % 10007}",
                                   "topics": names if not differ or m % 4 else rng.sample(names, max(1, topics // 2))}
                                  for m in range(members)]
    first = [dict(r) for r in rows]
    if given:
        every = [f"{t}-{p}" for t in names for p in range(per_topic)]
        for m, row in enumerate(first):
            row["current_assignment"] = every[m::members]
    topic_map = dict.fromkeys(names, per_topic)
    return {"steps": [{"topics": topic_map, "members": first if i == 0 else rows[i:]} for i in range(steps)]}


def share_chain_doc(members: int, steps: int, topics: int, per_topic: int, how: str) -> dict[str, Any]:
    """Chained steps whose partitions change, one member leaving and one joining at each (``-churn``: a third
    of them).  ``grow``: ``topics`` topics, each step more partitions (topic ``j`` grows by ``j + 1``), every
    member on all (``-differing``: each on two thirds of them, the heterogeneous path); ``move``: each step
    ``topics`` new topics (``per_topic`` + step % 5 partitions) beside the previous step's, the older ones
    deleted; every member on the new ones, every other member also on the previous ones.  A member keeps the
    partitions of topics no member subscribes to any more, so a ``move`` chain holds about members x steps²
    partitions in all."""
    rng = random.Random(5)
    ids = [f"member-{i}" for i in range(members)]
    joined = members
    out: list[dict[str, Any]] = []
    for k in range(steps):
        if how.startswith("grow"):
            names = [f"t{j}" for j in range(topics)]
            topic_map = {n: per_topic + k * (j + 1) for j, n in enumerate(names)}

            def subscribed(i: int, names: list[str] = names) -> list[str]:
                return names if how == "grow" else [n for j, n in enumerate(names) if (i + j) % 3] or names[:1]
        else:
            new, old = [f"s{k}-t{j}" for j in range(topics)], [f"s{k - 1}-t{j}" for j in range(topics)] if k else []
            topic_map = {n: per_topic + s % 5 for s, group in ((k, new), (k - 1, old)) for n in group}

            def subscribed(i: int, new: list[str] = new, old: list[str] = old) -> list[str]:
                return new + (old if i % 2 else [])
        for _ in range((members // 3 if how.endswith("churn") else 1) if k else 0):
            ids.pop(rng.randrange(len(ids)))
            ids.append(f"member-{joined}")
            joined += 1
        out.append({"topics": topic_map, "members": [{"id": m, "topics": subscribed(int(m.rsplit("-", 1)[1]))}
                                                     for m in ids]})
    return {"steps": out}


def _short_name(i: int) -> str:
    """``a``, ``b`` ... ``Z``, ``ba`` ...: the shortest topic names (a document holds the most subscriptions)."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    name = letters[i % 52]
    while i >= 52:
        i //= 52
        name = letters[i % 52] + name
    return name


def share_differing_doc(members: int, topics: int, per_topic: int, per_member: int, steps: int = 1,
                        resubscribe: bool = False) -> dict[str, Any]:
    """``members`` each on ``per_member`` random topics of ``topics`` (short names); each further step drops the
    first member, or (``resubscribe``) keeps every member on new random topics."""
    rng = random.Random(3)
    names = [_short_name(i) for i in range(topics)]
    topic_map = dict.fromkeys(names, per_topic)
    rows = [{"id": f"m{i}", "topics": rng.sample(names, per_member)} for i in range(members)]
    out = []
    for k in range(steps):
        if resubscribe and k:
            rows = [{"id": r["id"], "topics": rng.sample(names, per_member)} for r in rows]
        out.append({"topics": topic_map, "members": rows if resubscribe else rows[k:]})
    return {"steps": out}


def _lazy(model: str, label: str, held_out: bool,
          prepare: Callable[[], Prepared]) -> Case:
    return Case(model, label, prepare, held_out)


def doc_shapes(doc: dict[str, Any]) -> list[computations.ShareStepShape]:
    """``step_shapes`` of a share-assign case read off its document (parsing it here would leave freed memory
    the measured run reuses, hiding its peak); ``test_bench_cost`` checks both agree."""
    def member(m: dict[str, Any]) -> ShareMember:
        given = m.get("current_assignment")
        return ShareMember(m["id"], tuple(m["topics"]),
                           None if given is None else given_counts((tp.rpartition("-")[0], 0) for tp in given))

    return share_step_shapes(ShareStep(s["topics"], [member(m) for m in s["members"]], s.get("subscription_type"))
                             for s in doc["steps"])


def _share_assign_case(label: str, held_out: bool, build: Callable[[], dict[str, Any]]) -> Case:
    def prepare() -> Prepared:
        doc = build()
        shapes = doc_shapes(doc)
        return ((lambda: encode_json({"steps": [x.to_json() for x in share_assign(doc).steps]})),
                computations.share_assignment_features(shapes),
                if_fitted("share_assign", lambda: cost.estimate_share_assignment(shapes)))

    return _lazy("share_assign", label, held_out, prepare)


def _share_assign_cases() -> list[Case]:
    """The three families: groups of every size (``share_assign_doc``), chained steps whose partitions change
    (``share_chain_doc``) and many differing subscriptions (``share_differing_doc``)."""
    cases = []
    for shape in SHARE_ASSIGN_FIT + SHARE_ASSIGN_HELD:
        partitions, members, topics, differ, steps, given = shape
        label = (f"{partitions:,} p, {members:,} m, {topics} t" + (", differing" if differ else "")
                 + f", {steps} st" + (", held given" if given else ""))
        cases.append(_share_assign_case(label, shape in SHARE_ASSIGN_HELD, lambda s=shape: share_assign_doc(*s)))
    for chain in SHARE_CHAIN_FIT + SHARE_CHAIN_HELD:
        members, steps, topics, per_topic, how = chain
        label = f"chain {how}: {members:,} m, {steps} st, {topics} x {per_topic} p"
        cases.append(_share_assign_case(label, chain in SHARE_CHAIN_HELD, lambda c=chain: share_chain_doc(*c)))
    for differing in SHARE_DIFFERING_FIT + SHARE_DIFFERING_HELD:
        members, topics, per_topic, per_member, steps, again = differing
        label = (f"{members:,} m x {per_member:,} of {topics:,} t x {per_topic} p, {steps} st"
                 + (", resubscribed" if again else ""))
        cases.append(_share_assign_case(label, differing in SHARE_DIFFERING_HELD,
                                        lambda d=differing: share_differing_doc(*d)))
    return cases


def _share_delivery_case(label: str, held_out: bool, build: Callable[[], dict[str, Any]]) -> Case:
    """The case read from its (decoded) document and run; its counts read off the document (``case_counts``)."""
    def prepare() -> Prepared:
        doc = build()
        events, cap, batches = share_case_counts(doc)
        return ((lambda: sum(1 for _ in run_share(parse_case(doc)))),
                computations.share_delivery_features(events, cap, batches),
                if_fitted("share_delivery", lambda: cost.estimate_share_delivery(events, cap, batches)))

    return _lazy("share_delivery", label, held_out, prepare)


def _share_answer_case(label: str, held_out: bool, build: Callable[[], dict[str, Any]]) -> Case:
    def prepare() -> Prepared:
        case = parse_case(build())
        events, cap = len(case.events), window_cap(case)
        return ((lambda: encode_json({"steps": replay_share(case)})), computations.share_answer_features(events, cap),
                if_fitted("share_deliver_answer", lambda: cost.estimate_share_deliver_answer(events, cap)))

    return _lazy("share_deliver_answer", label, held_out, prepare)


def share_cases() -> list[Case]:
    """Share groups: ``share-assign`` (the assignor and its JSON answer), a share partition's delivery (the case
    read and run: scale cases, long logs, ticks) and ``share-deliver``'s answer (its worst case, one state run per
    record after every event, and steps with an empty window)."""
    delivery = [*(_share_delivery_case(f"{events:,} events at {locks:,} locks", (events, locks) in SHARE_DELIVERY_HELD,
                                       lambda e=events, x=locks: share_scale_case(e, locks=x))
                  for events, locks in SHARE_DELIVERY_FIT + SHARE_DELIVERY_HELD),
                *(_share_delivery_case(f"{batches:,} log batches, {fetches} fetches",
                                       (batches, fetches) in SHARE_BATCHES_HELD,
                                       lambda b=batches, f=fetches: share_batches_case(b, f))
                  for batches, fetches in SHARE_BATCHES_FIT + SHARE_BATCHES_HELD),
                *(_share_delivery_case(f"{events:,} ticks", (events,) in SHARE_TICKS_HELD,
                                       lambda e=events: share_ticks_case(e))
                  for events, in SHARE_TICKS_FIT + SHARE_TICKS_HELD)]
    answer = [*(_share_answer_case(f"{ticks + 2:,} events x {records:,} records, one run each",
                                   (records, ticks) in SHARE_ANSWER_HELD,
                                   lambda r=records, t=ticks: worst_answer_case(r, t))
                for records, ticks in SHARE_ANSWER_FIT + SHARE_ANSWER_HELD),
              *(_share_answer_case(f"{events:,} ticks, an empty window", (events,) in SHARE_ANSWER_TICKS_HELD,
                                   lambda e=events: share_ticks_case(e))
                for events, in SHARE_ANSWER_TICKS_FIT + SHARE_ANSWER_TICKS_HELD)]
    return [*_share_assign_cases(), *delivery, *answer]
