"""Pure-Python parts of the load pipeline (no Spark): assignments to join with, the summary
shape of ../shared/spec/README.md section 8, and the recommendation.

Example — the recommendation picks the fewest consumers (then the fewest partitions) whose
busiest consumer stays under the target::

    >>> def row(consumers, member, peak):
    ...     return {"strategy": "range", "consumers": consumers, "num_partitions": 12, "member": member,
    ...             "peak_messages_per_s": peak}
    >>> rows = [row(2, "C0", 90.0), row(2, "C1", 60.0), row(3, "C0", 50.0)]
    >>> best = recommend(rows, target=80.0)
    >>> (best.consumers, best.num_partitions, best.max_load, best.meets_target)
    (3, 12, 50.0, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import EngineError

STRATEGY_ORDER = ("range", "roundrobin", "sticky", "cooperative-sticky")
AssignmentRow = tuple[str, int, int, str, int]  # strategy, consumers, num_partitions, member, partition


def member_ids(consumers: int) -> list[str]:
    """``C0``.. (zero-padded so Kafka's member-id ordering is the natural one: C00 < C01 < ... < C10)."""
    width = len(str(consumers - 1))
    return [f"C{i:0{width}d}" for i in range(consumers)]


def group_scenario(topic: str, num_partitions: int, consumers: int) -> dict[str, Any]:
    """The consumer group the load is spread over: ``consumers`` members, all subscribed to ``topic``."""
    return {
        "topics": {topic: num_partitions},
        "members": [{"id": m, "topics": [topic]} for m in member_ids(consumers)],
    }


def consumer_assignments(
    topic: str, counts: Sequence[int], consumer_counts: Sequence[int], strategies: Sequence[str]
) -> tuple[list[AssignmentRow], dict[str, str]]:
    """Rows ``(strategy, consumers, num_partitions, member, partition)`` from the group replay.

    A member that owns nothing gets one row with partition ``-1``.  A strategy the engine cannot
    run yet is left out and reported in the second value (strategy -> reason).
    """
    from engine.consumer.group import replay
    from engine.scenario import parse_scenario

    rows: list[AssignmentRow] = []
    skipped: dict[str, str] = {}
    for strategy in strategies:
        try:
            for consumers in consumer_counts:
                for n in counts:
                    scenario = parse_scenario(group_scenario(topic, n, consumers))
                    assignment = replay(scenario, strategy).steps[0].assignment
                    rows.extend(_rows(strategy, consumers, n, assignment))
        except (NotImplementedError, ImportError, KeyError) as exc:
            skipped[strategy] = f"not available in this engine ({type(exc).__name__}: {exc})"
            rows = [r for r in rows if r[0] != strategy]
    return rows, skipped


def _rows(
    strategy: str, consumers: int, n: int, assignment: Mapping[str, Sequence[Any]]
) -> list[AssignmentRow]:
    out: list[AssignmentRow] = []
    for member in member_ids(consumers):
        owned = sorted(tp.partition for tp in assignment.get(member, []))
        out.extend((strategy, consumers, n, member, p) for p in owned or [-1])
    return out


def complete_partitions(
    rows: Iterable[Mapping[str, Any]], counts: Sequence[int], fields: Sequence[str]
) -> dict[int, list[dict[str, Any]]]:
    """Per count, one dict per partition 0..n-1 in order (zeros where no record landed)."""
    found = {(int(r["num_partitions"]), int(r["partition"])): r for r in rows}
    out: dict[int, list[dict[str, Any]]] = {}
    for n in counts:
        out[n] = []
        for p in range(n):
            row = found.get((n, p), {})
            out[n].append({"partition": p, **{f: _number(row.get(f)) for f in fields}})
    return out


def _number(value: Any) -> Any:
    if value is None or value != value:  # None or NaN
        return 0
    return int(value) if float(value).is_integer() and not isinstance(value, float) else value


def summary_document(
    rows: int, null_keys: int, partitions: Mapping[int, list[dict[str, Any]]]
) -> dict[str, Any]:
    """``summary.json`` exactly as the spec has it (keyed records only; bytes from the size column)."""
    return {
        "rows": int(rows),
        "null_keys": int(null_keys),
        "partitions": {
            str(n): [{"partition": r["partition"], "messages": int(r["keyed_messages"]),
                      "bytes": int(r["keyed_bytes"])} for r in per]
            for n, per in partitions.items()
        },
    }


def significant(value: float, digits: int = 3) -> str:
    """``value`` with at least ``digits`` significant digits and thousands separators (never 0.183 shown as
    0.2 beside a target of 0.184)::

        >>> significant(0.18349), significant(18.349), significant(1234.5), significant(0)
        ('0.183', '18.3', '1,234', '0')
    """
    import math

    if value == 0 or not math.isfinite(value):
        return f"{value:,.0f}" if math.isfinite(value) else str(value)
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:,.{decimals}f}"


@dataclass(frozen=True)
class Recommendation:
    strategy: str
    consumers: int
    num_partitions: int
    max_load: float  # the busiest consumer's load in the chosen metric
    target: float
    meets_target: bool
    ties: tuple[str, ...] = ()  # every strategy with the same counts and the same busiest load (strategy first)

    def sentence(self, metric: str = "messages/s") -> str:
        verdict = "keeps" if self.meets_target else "cannot keep (closest option)"
        names = " = ".join(self.ties) if len(self.ties) > 1 else self.strategy
        return (
            f"{self.num_partitions} partitions with {self.consumers} consumers ({names}) "
            f"{verdict} the busiest consumer at {significant(self.max_load)} {metric} "
            f"against a target of {significant(self.target)}"
        )


def max_consumer_load(
    rows: Iterable[Mapping[str, Any]], metric: str = "peak_messages_per_s"
) -> dict[tuple[str, int, int], float]:
    """(strategy, consumers, num_partitions) -> the busiest member's value of ``metric``."""
    out: dict[tuple[str, int, int], float] = {}
    for r in rows:
        key = (str(r["strategy"]), int(r["consumers"]), int(r["num_partitions"]))
        value = float(_number(r.get(metric)))
        out[key] = max(out.get(key, 0.0), value)
    return out


def default_target(topic_peak: float | None, consumer_counts: Sequence[int]) -> float | None:
    """A target that means something for this data: the topic's peak split evenly over the smallest group.

    A perfectly balanced group of ``min(consumer_counts)`` consumers just meets it, so the
    recommendation then shows what skew and the assignor cost.  Rounded up to 3 significant digits;
    None without a peak (no timestamps) or without consumer counts.

    >>> default_target(1234.5, [4, 2, 6]), default_target(10.0, [3])
    (618.0, 3.34)
    """
    import math

    if not topic_peak or topic_peak <= 0 or not consumer_counts:
        return None
    share = topic_peak / min(consumer_counts)
    step = 10.0 ** (math.floor(math.log10(share)) - 2)
    return round(math.ceil(round(share / step, 9)) * step, 12)


def recommend(
    rows: Iterable[Mapping[str, Any]], target: float, metric: str = "peak_messages_per_s"
) -> Recommendation | None:
    """Fewest consumers, then fewest partitions, then strategy order, with max load <= ``target``.

    When nothing meets the target, the option with the lowest max load (``meets_target`` False).  ``ties``
    names every strategy that gives the same busiest load at the same counts (they are equally good here)::

        >>> rows = [{"strategy": s, "consumers": 2, "num_partitions": 4, "peak_messages_per_s": 5}
        ...         for s in ("range", "roundrobin")]
        >>> recommend(rows, 6).ties
        ('range', 'roundrobin')
    """
    if not target > 0:
        raise EngineError(f"target: must be > 0, got {target}")
    loads = max_consumer_load(rows, metric)
    if not loads:
        return None
    rank = {s: i for i, s in enumerate(STRATEGY_ORDER)}
    ordered = sorted(loads, key=lambda k: (k[1], k[2], rank.get(k[0], 99), k[0]))

    def ties(key: tuple[str, int, int]) -> tuple[str, ...]:
        return tuple(k[0] for k in ordered if k[1:] == key[1:] and loads[k] == loads[key])

    for key in ordered:
        if loads[key] <= target:
            return Recommendation(key[0], key[1], key[2], loads[key], target, True, ties(key))
    best = min(ordered, key=lambda k: loads[k])
    return Recommendation(best[0], best[1], best[2], loads[best], target, False, ties(best))
