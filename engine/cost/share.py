"""What a share group's assignment carries from step to step, counted from the members before any work.

KIP-932's ``SimpleAssignor`` reads every member's current assignment (given, or what the previous step answered
it) and answers each member its partitions: its work and its answer grow with what members hold, not only
with partitions and members.  A member's answer is its share of the partitions it is balanced over,
``D x P / S`` of a scope of ``P`` partitions and ``S`` members with ``D = ceil(S / P)`` (homogeneous: one
scope, the whole group; heterogeneous: each topic among its own subscribers, so a member with ``n`` topics
gets a share of each), plus, on the heterogeneous path, everything it holds of topics no member subscribes
to in that step (deleted or abandoned topics: the assignor never visits them, so their holders keep them,
step after step, and a chain of such steps holds members x steps² partitions).  ``share_step_shapes``
follows those counts member by member without running the assignor: per step, linear in the members and
their distinct subscriptions, plus what members start to keep or give back.

Worked example (asserted by tests/engine/cost/test_share_costs.py): two members on ``a``, then each on a
topic of its own (heterogeneous), then both on ``c``, one also on a missing ``x``: ``a`` and ``b`` are no
longer visited, so their holders keep them beside their share of ``c``:

>>> a, b = ShareMember("m1", ("a",)), ShareMember("m2", ("a",))
>>> steps = [ShareStep({"a": 4}, (a, b)),
...          ShareStep({"a": 4, "b": 2}, (ShareMember("m1", ("b",)), b)),
...          ShareStep({"c": 2}, (ShareMember("m1", ("c",)), ShareMember("m2", ("c", "x"))))]
>>> [(s.held, s.held_topics, s.answered, s.differ) for s in share_step_shapes(steps)]
[(0.0, 0.0, 4.0, False), (4.0, 2.0, 6.0, True), (6.0, 2.0, 8.0, True)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, repeat
from typing import NamedTuple

from engine.cost.computations import ShareStepShape

HOMOGENEOUS = "HOMOGENEOUS"  # engine.coordinator.group_spec's names (not imported: the cost model stays light)
HETEROGENEOUS = "HETEROGENEOUS"


class ShareMember(NamedTuple):
    """A member as the count reads it: its id, subscribed names (missing topics allowed) and, when given, its
    current assignment's partitions per topic (None: what the previous step answered it)."""

    id: str
    topics: tuple[str, ...]
    given: Mapping[str, int] | None = None


@dataclass(frozen=True)
class ShareStep:
    """One step: topic -> partitions, the members, and the subscription type when given (else computed)."""

    topics: Mapping[str, int]
    members: Sequence[ShareMember]
    kind: str | None = None


def given_counts(partitions: Iterable[tuple[str, int]]) -> dict[str, int]:
    """A current assignment's ``(topic, partition)``s as partitions per topic.

    >>> given_counts([("a", 0), ("a", 3), ("b", 1)])
    {'a': 2, 'b': 1}
    """
    return dict(Counter(topic for topic, _ in partitions))


def sharing_share(members: int, partitions: int) -> float:
    """Partitions each of ``members`` gets of a scope of ``partitions``: ``ceil(S / P) x P / S`` (0 without any).

    >>> sharing_share(5, 3), sharing_share(4, 10), sharing_share(0, 3)
    (1.2, 2.5, 0.0)
    """
    if members <= 0 or partitions <= 0:
        return 0.0
    return -(-members // partitions) * partitions / members


@dataclass
class _Kept:
    """What one member keeps of topics its step does not visit: partitions per topic (never shared)."""

    counts: dict[str, float] = field(default_factory=dict)
    total: float = 0.0
    pairs: float = 0.0

    def add(self, topic: str, count: float) -> None:
        self.counts[topic] = count
        self.total += count
        self.pairs += min(count, 1.0)

    def drop(self, topics: Iterable[str]) -> None:
        for t in topics:
            count = self.counts.pop(t, None)
            if count is not None:
                self.total -= count
                self.pairs -= min(count, 1.0)


@dataclass
class _Balance:
    """One step's balance: per visited topic, the partitions a member balanced over it gets; each member's
    scope (the topics it is balanced over) and the step's totals over its members."""

    share: dict[str, float]
    scopes: list[frozenset[str]]
    answered: float
    pairs: float
    totals: dict[frozenset[str], tuple[float, float]] = field(default_factory=dict)

    def of(self, scope: frozenset[str]) -> tuple[float, float]:
        """(partitions, topics) a member of ``scope`` gets: its share of each topic, summed."""
        known = self.totals.get(scope)
        if known is None:
            counts = list(map(self.share.get, scope, repeat(0.0)))
            known = self.totals[scope] = (sum(counts), sum(map(min, counts, repeat(1.0))))
        return known


def _balance(step: ShareStep, names: list[frozenset[str]]) -> tuple[_Balance, bool]:
    """The step's balance and whether it takes the heterogeneous path."""
    groups = Counter(names)
    heterogeneous = step.kind == HETEROGENEOUS if step.kind else len(groups) > 1
    topics = step.topics
    if not heterogeneous:  # one scope: the subscribed topics (their union when the type is forced)
        scope = frozenset(t for g in groups for t in g if t in topics)
        partitions, members = sum(topics[t] for t in scope), len(names)
        each = sharing_share(members, partitions)
        share = {t: each * topics[t] / partitions for t in scope} if each else {}
        pairs = members * sum(min(c, 1.0) for c in share.values())
        return _Balance(share, [scope] * len(names), each * members, pairs), False
    subscribers: Counter[str] = Counter(chain.from_iterable(g for g, n in groups.items() if n == 1))
    for g, n in groups.items():
        if n > 1:
            subscribers.update(dict.fromkeys(g, n))
    share = {t: sharing_share(n, topics[t]) for t, n in subscribers.items() if t in topics}
    answered = sum(subscribers[t] * c for t, c in share.items())
    pairs = sum(subscribers[t] * min(c, 1.0) for t, c in share.items())
    return _Balance(share, names, answered, pairs), True


class _Follow:
    """Each member's holdings from one step to the next (``share_step_shapes``)."""

    def __init__(self) -> None:
        self.previous: _Balance | None = None
        self.before: dict[str, tuple[frozenset[str], _Kept | None]] = {}  # member -> its scope, what it kept
        self.kept_topics: set[str] = set()  # every topic some member keeps (a superset)

    def step(self, step: ShareStep) -> ShareStepShape:
        """One step's shape; what each member ends with is kept for the next step."""
        names = [frozenset(m.topics) for m in step.members]
        balance, heterogeneous = _balance(step, names)
        visited = set(balance.share)
        previous, before = self.previous, self.before
        abandoned = {t for t in previous.share if t not in visited} if previous is not None else set()
        revived = self.kept_topics & visited
        parts: dict[frozenset[str], _Kept] = {}
        held_all = topics_all = kept_all = kept_topics_all = 0.0
        now: dict[str, tuple[frozenset[str], _Kept | None]] = {}
        for member, scope in zip(step.members, balance.scopes):
            kept: _Kept | None = None
            if member.given is not None:
                held, topics = float(sum(member.given.values())), float(len(member.given))
                old = frozenset(member.given)
                if heterogeneous:
                    kept = self._given_kept(member.given, visited)
            else:
                got = before.get(member.id)
                if got is None or previous is None:
                    now[member.id] = (scope, None)
                    continue
                old, kept = got
                held, topics = previous.of(old)
                if kept is not None:
                    held, topics = held + kept.total, topics + kept.pairs
                if not heterogeneous:
                    kept = None
                elif kept is not None or abandoned:
                    kept = self._keep(kept, revived, visited, abandoned, parts, old, previous)
            held_all += held
            topics_all += topics
            if kept is not None:
                kept_all += kept.total
                kept_topics_all += kept.pairs
            now[member.id] = (scope, kept)
        for part in parts.values():  # what members start to keep this step (a given one's: added as it is read)
            self.kept_topics.update(part.counts)
        if heterogeneous:
            self.kept_topics -= visited
        else:
            self.kept_topics.clear()
        self.previous, self.before = balance, now
        return ShareStepShape(sum(step.topics.values()), len(step.members),
                              sum(max(len(m.topics), 1) for m in step.members), heterogeneous, len(visited),
                              held_all, topics_all, balance.answered + kept_all, balance.pairs + kept_topics_all)

    def _given_kept(self, given: Mapping[str, int], visited: set[str]) -> _Kept | None:
        """What a member given its current assignment keeps on the heterogeneous path: the topics not visited."""
        kept = _Kept()
        for t, n in given.items():
            if t not in visited:
                kept.add(t, float(n))
                self.kept_topics.add(t)
        return kept if kept.counts else None

    @staticmethod
    def _keep(kept: _Kept | None, revived: set[str], visited: set[str], abandoned: set[str],
              parts: dict[frozenset[str], _Kept], old: frozenset[str], previous: _Balance) -> _Kept | None:
        """A member's holdings of topics this heterogeneous step does not visit: what it kept, less the topics
        visited again, plus its share of the topics the previous step visited and this one does not."""
        if kept is not None and revived:
            smaller = revived if len(revived) < len(kept.counts) else kept.counts
            kept.drop([t for t in smaller if t in visited and t in kept.counts])
        if not abandoned:
            return kept if kept is not None and kept.counts else None
        part = parts.get(old)
        if part is None:
            part = parts[old] = _Kept()
            for t in (abandoned if len(abandoned) < len(old) else old):
                if t in abandoned and t in old:
                    part.add(t, previous.share[t])
        if part.counts:
            kept = kept if kept is not None else _Kept()
            for t, c in part.counts.items():
                kept.add(t, c)
        return kept if kept is not None and kept.counts else None


def share_step_shapes(steps: Iterable[ShareStep]) -> list[ShareStepShape]:
    """Each step's shape: partitions, members, subscriptions (at least one a member), the path, and what the
    members carry in (``held``: partitions, ``held_topics``: member-topic pairs), are answered (``answered``,
    ``answered_topics``), each member's holdings followed from step to step as the module's docstring says."""
    follow = _Follow()
    return [follow.step(step) for step in steps]
