"""How many partitions: the throughput rule, what each partition costs, and perf-test parsing.

The rule (Jun Rao, "How to choose the number of topics/partitions in a Kafka cluster?", Confluent
blog, 2015): measure one partition's producer throughput ``p`` and consumer throughput ``c``; for a
target ``T`` you need at least ``max(T/p, T/c)`` partitions, here ``ceil(max(T*g/p, T*g/c))`` with
growth factor ``g = 1 + headroom``.  Seed article 000 writes ``Tt / max(Tp, Tc)``, which divides by
the *faster* side and so under-sizes whenever ``Tp != Tc``.

Worked example (asserted in ``tests/engine/test_sizing.py``): ``T = 200`` MB/s, ``p = 25``, ``c = 10``,
no headroom -> ``max(200/25, 200/10) = max(8, 20) = 20`` partitions; the seed formula gives
``200 / max(25, 10) = 8``: consumers then get 25 MB/s each but can do only 10, so the group falls
behind by 120 MB/s.

Every constant below is editable: ``SizingInputs.constants`` overrides ``CONSTANTS[key].value``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any, Final, Literal

from engine.errors import EngineError, InputError, LimitError
from engine.inputs import parse_decimal

Era = Literal["kraft", "zookeeper"]
MAX_THROUGHPUT: Final = 1e7  # MB/s
MAX_PARTITIONS: Final = 10_000_000
MAX_BROKERS: Final = 10_000
MAX_PERF_TEXT: Final = 1_000_000  # characters of pasted perf-test output
MIB: Final = 1024 * 1024


class SizingError(EngineError):
    """Bad sizing input or an unparseable perf-test paste."""


@dataclass(frozen=True)
class Constant:
    """A number the cost model uses, with where it comes from and when it was true."""

    key: str
    label: str
    value: float
    unit: str
    source: str
    era: str


CONSTANTS: Final[dict[str, Constant]] = {c.key: c for c in [
    Constant("election_ms_zk", "leader election per partition (ZooKeeper)", 5.0, "ms",
             "Jun Rao, Confluent blog 2015: unclean broker failure, ~5 ms per partition whose leader "
             "moves (1,000 leaders -> ~5 s unavailable)", "ZooKeeper controller, Kafka 0.8-2.x"),
    Constant("election_ms_kraft", "leader election per partition (KRaft)", 0.5, "ms",
             "Assumption: KRaft writes leader changes as batched metadata records; no per-partition "
             "figure is published. Edit with your own measurement", "KRaft, Kafka 3.3+"),
    Constant("controller_load_ms_zk", "controller failover: metadata load per partition", 2.0, "ms",
             "Jun Rao, Confluent blog 2015: a new controller reads every partition's metadata from "
             "ZooKeeper, ~2 ms each (10,000 partitions -> ~20 s); much improved in Kafka 1.1 (KAFKA-5642)",
             "ZooKeeper controller, Kafka 0.8-1.0"),
    Constant("controller_failover_ms_kraft", "controller failover (KRaft), independent of partitions", 1000.0,
             "ms",
             "controller.quorum.election.timeout.ms default 1000: standby controllers already hold the "
             "metadata log, so failover is a Raft election", "KRaft, Kafka 3.3+"),
    Constant("replication_ms_per_1000", "replication latency per 1,000 partitions between two brokers", 20.0,
             "ms",
             "Jun Rao, Confluent blog 2015: replicating 1,000 partitions from one broker to another adds "
             "~20 ms (one fetcher thread)", "Kafka 0.8-era hardware; measure yours"),
    Constant("partitions_per_broker_zk", "partitions (replicas) per broker limit (ZooKeeper)", 4000,
             "partitions",
             "Jun Rao, Confluent blog 2018 'Apache Kafka Supports 200K Partitions Per Cluster' (Kafka 1.1)",
             "ZooKeeper, Kafka 1.1-3.x"),
    Constant("partitions_per_cluster_zk", "partitions per cluster limit (ZooKeeper)", 200_000, "partitions",
             "Jun Rao, Confluent blog 2018 (Kafka 1.1): ~200,000 per cluster", "ZooKeeper, Kafka 1.1-3.x"),
    Constant("partitions_per_broker_kraft", "partitions (replicas) per broker guide (KRaft)", 4000,
             "partitions",
             "Per-broker cost (files, memory, fetchers) is unchanged by KRaft; the 2018 guide still applies",
             "KRaft, Kafka 3.3+"),
    Constant("partitions_per_cluster_kraft", "partitions per cluster limit (KRaft)", 2_000_000, "partitions",
             "KIP-500 targets millions of partitions; Confluent demonstrated ~2 million (2021)",
             "KRaft, Kafka 3.3+"),
    Constant("files_per_segment", "open files per log segment", 3, "files",
             ".log, .index, .timeindex (a .txnindex only with aborted transactions)", "Kafka 0.10.1+"),
    Constant("rule_of_thumb_per_broker", "latency rule: partitions per broker <= this x brokers x RF", 100,
             "x b x r",
             "Jun Rao, Confluent blog 2015: if you care about latency, limit partitions per broker to "
             "100 x b x r",
             "2015 guidance"),
]}


@dataclass(frozen=True)
class SizingInputs:
    """What a sizing workshop fills in (throughputs in MB/s, as the perf tools print them)."""

    target_mb_s: float = 200.0
    producer_mb_s: float = 25.0  # one partition, measured
    consumer_mb_s: float = 10.0  # one partition, measured
    headroom_pct: float = 0.0  # future growth
    brokers: int = 3
    replication_factor: int = 3
    batch_size: int = 16_384  # batch.size
    buffer_memory: int = 33_554_432  # buffer.memory
    segments_per_partition: int = 5
    existing_partitions: int = 0  # other partitions in the cluster (replicas not counted)
    era: Era = "kraft"
    round_to_brokers: bool = False
    constants: Mapping[str, float] = field(default_factory=dict)

    def validate(self) -> SizingInputs:
        """``self``, or ``SizingError`` with the first of ``problems()``."""
        problems = self.problems()
        if problems:
            raise SizingError(problems[0])
        return self

    def problems(self) -> list[str]:
        """Every reason these inputs are refused, one line each (a form shows them all at once).

        ``SizingInputs(producer_mb_s=0, replication_factor=5).problems()`` is
        ``["producer_mb_s: must be greater than 0, got 0",
        "replication_factor: must be between 1 and 3, got 5"]``.
        """
        out: list[str] = []
        for check in self._checks():
            try:
                check()
            except SizingError as exc:
                out.append(str(exc))
        return out

    def _checks(self) -> list[Callable[[], object]]:
        checks: list[Callable[[], object]] = [
            *(partial(_positive, name, getattr(self, name), MAX_THROUGHPUT)
              for name in ("target_mb_s", "producer_mb_s", "consumer_mb_s")),
            partial(_number, "headroom_pct", self.headroom_pct, 0, 10_000),
            partial(_integer, "brokers", self.brokers, 1, MAX_BROKERS),
            partial(_integer, "replication_factor", self.replication_factor, 1, self.brokers),
            partial(_integer, "batch_size", self.batch_size, 1, 2**31 - 1),
            partial(_integer, "buffer_memory", self.buffer_memory, 1, 2**63 - 1),
            partial(_integer, "segments_per_partition", self.segments_per_partition, 1, 1_000_000),
            partial(_integer, "existing_partitions", self.existing_partitions, 0, MAX_PARTITIONS),
            partial(_check_era, self.era),
        ]
        return checks + [partial(_check_constant, key, value) for key, value in self.constants.items()]

    def constant(self, key: str) -> float:
        return float(self.constants.get(key, CONSTANTS[key].value))


def _check_era(era: Any) -> None:
    if era not in ("kraft", "zookeeper"):
        raise SizingError(f"era: expected 'kraft' or 'zookeeper', got {era!r}")


def _check_constant(key: str, value: Any) -> None:
    if key not in CONSTANTS:
        raise SizingError(f"constants: unknown constant {key!r}")
    _number(f"constants.{key}", value, 0, 1e12)


def _number(name: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise SizingError(f"{name}: expected a number, got {value!r}")
    if not low <= value <= high:
        raise SizingError(f"{name}: must be between {low:g} and {high:g}, got {value:g}")
    return float(value)


def _positive(name: str, value: Any, high: float) -> float:
    number = _number(name, value, 0, high)
    if number <= 0:
        raise SizingError(f"{name}: must be greater than 0, got {value!r}")
    return number


def _integer(name: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SizingError(f"{name}: expected a whole number, got {value!r}")
    if not low <= value <= high:
        raise SizingError(f"{name}: must be between {low} and {high}, got {value}")
    return value


# --------------------------------------------------------------------------- the rule


def _grown(target: float, headroom_pct: float) -> float:
    """``T * g``: the target with the growth headroom (both validated)."""
    growth = 1 + _number("headroom_pct", headroom_pct, 0, 10_000) / 100
    return _positive("target_mb_s", target, MAX_THROUGHPUT) * growth


def partitions_needed(target: float, producer: float, consumer: float, headroom_pct: float = 0.0) -> int:
    """``ceil(max(T*g/p, T*g/c))`` with ``g = 1 + headroom/100``; ``partitions_needed(200, 25, 10) == 20``."""
    grown = _grown(target, headroom_pct)
    exact = max(grown / _positive("producer_mb_s", producer, MAX_THROUGHPUT),
                grown / _positive("consumer_mb_s", consumer, MAX_THROUGHPUT))
    return _ceil_count(exact)


def seed_article_partitions(target: float, producer: float, consumer: float,
                            headroom_pct: float = 0.0) -> int:
    """The common mistake ``Tt / max(Tp, Tc)`` (seed article 000): ``seed_article_partitions(200, 25, 10)``
    is 8."""
    grown = _grown(target, headroom_pct)
    return _ceil_count(grown / max(_positive("producer_mb_s", producer, MAX_THROUGHPUT),
                                   _positive("consumer_mb_s", consumer, MAX_THROUGHPUT)))


def _ceil_count(exact: float) -> int:
    count = max(1, math.ceil(round(exact, 9)))  # 200/25 is 8, not 8.000000001
    if count > MAX_PARTITIONS:
        raise LimitError(f"partitions: the inputs need {count:,} partitions, more than the "
                         f"{MAX_PARTITIONS:,} limit")
    return count


def shortfall_mb_s(target: float, producer: float, consumer: float, partitions: int) -> float:
    """How far ``partitions`` fall short of ``target`` (0 when they suffice): ``T - n*min(p, c)``."""
    return max(0.0, target - partitions * min(producer, consumer))


# --------------------------------------------------------------------------- costs of N partitions


def leaders_per_broker(partitions: int, brokers: int) -> int:
    """Leaders on the busiest broker when leaders are spread evenly: ``ceil(N / b)``."""
    return -(-partitions // brokers)


def replicas_per_broker(partitions: int, brokers: int, replication_factor: int) -> int:
    """Partition replicas on the busiest broker: ``ceil(N * RF / b)``."""
    return -(-(partitions * replication_factor) // brokers)


def producer_memory_bytes(partitions: int, batch_size: int) -> int:
    """One open batch per partition a producer writes to: ``N * batch.size``.

    Seed article 000: 10,000 partitions x 16 KB = 163,840,000 bytes (~157 "MB", i.e. 156.25 MiB).
    """
    return partitions * batch_size


def open_file_handles(partitions: int, inputs: SizingInputs) -> int:
    """Files a broker keeps open: replicas on it x segments per partition x files per segment."""
    per_broker = replicas_per_broker(partitions, inputs.brokers, inputs.replication_factor)
    return per_broker * inputs.segments_per_partition * int(inputs.constant("files_per_segment"))


def unavailability_s(partitions: int, inputs: SizingInputs) -> float:
    """Unclean failure of one broker: its leaders x per-partition election time (seconds)."""
    key = "election_ms_zk" if inputs.era == "zookeeper" else "election_ms_kraft"
    return leaders_per_broker(partitions, inputs.brokers) * inputs.constant(key) / 1000


def controller_failover_s(partitions: int, inputs: SizingInputs) -> float:
    """Controller failover: ZooKeeper reloads every partition; KRaft is a quorum election."""
    if inputs.era == "zookeeper":
        return (partitions + inputs.existing_partitions) * inputs.constant("controller_load_ms_zk") / 1000
    return inputs.constant("controller_failover_ms_kraft") / 1000


def replicated_per_broker_pair(partitions: int, brokers: int, replication_factor: int) -> float:
    """Partitions one follower fetches from one leader broker: ``ceil(N/b) * (RF-1) / (b-1)``."""
    if brokers < 2 or replication_factor < 2:
        return 0.0
    return leaders_per_broker(partitions, brokers) * (replication_factor - 1) / (brokers - 1)


def replication_latency_ms(partitions: int, inputs: SizingInputs) -> float:
    """Added commit latency: ``20 ms x partitions replicated between a broker pair / 1000``."""
    pair = replicated_per_broker_pair(partitions, inputs.brokers, inputs.replication_factor)
    return inputs.constant("replication_ms_per_1000") * pair / 1000


def _limit_keys(era: Era) -> tuple[str, str]:
    return (f"partitions_per_broker_{'zk' if era == 'zookeeper' else 'kraft'}",
            f"partitions_per_cluster_{'zk' if era == 'zookeeper' else 'kraft'}")


@dataclass(frozen=True)
class Constraint:
    """One check of the chosen count against a cost or limit."""

    name: str
    value: float
    limit: float | None
    unit: str
    ok: bool
    note: str


@dataclass(frozen=True)
class SizingResult:
    inputs: SizingInputs
    recommended: int
    seed_formula: int
    producer_bound: float  # T*g/p
    consumer_bound: float  # T*g/c
    chosen: int
    constraints: list[Constraint]

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["inputs"]["constants"] = dict(self.inputs.constants)
        return out


def size(inputs: SizingInputs, chosen: int | None = None) -> SizingResult:
    """The recommendation and every constraint, for ``chosen`` (default: the recommendation)."""
    inputs.validate()
    g = 1 + inputs.headroom_pct / 100
    recommended = partitions_needed(inputs.target_mb_s, inputs.producer_mb_s, inputs.consumer_mb_s,
                                    inputs.headroom_pct)
    if inputs.round_to_brokers:
        recommended = _ceil_count(math.ceil(recommended / inputs.brokers) * inputs.brokers)
    count = recommended if chosen is None else _integer("chosen partitions", chosen, 1, MAX_PARTITIONS)
    return SizingResult(
        inputs=inputs,
        recommended=recommended,
        seed_formula=seed_article_partitions(inputs.target_mb_s, inputs.producer_mb_s, inputs.consumer_mb_s,
                                             inputs.headroom_pct),
        producer_bound=inputs.target_mb_s * g / inputs.producer_mb_s,
        consumer_bound=inputs.target_mb_s * g / inputs.consumer_mb_s,
        chosen=count,
        constraints=constraints(count, inputs),
    )


def constraints(partitions: int, inputs: SizingInputs) -> list[Constraint]:
    """Every cost of ``partitions`` with its limit and verdict."""
    broker_key, cluster_key = _limit_keys(inputs.era)
    memory = producer_memory_bytes(partitions, inputs.batch_size)
    per_broker = replicas_per_broker(partitions, inputs.brokers, inputs.replication_factor) + \
        replicas_per_broker(inputs.existing_partitions, inputs.brokers, inputs.replication_factor)
    cluster = partitions + inputs.existing_partitions
    rule = inputs.constant("rule_of_thumb_per_broker") * inputs.brokers * inputs.replication_factor
    throughput = partitions * min(inputs.producer_mb_s, inputs.consumer_mb_s)
    grown = inputs.target_mb_s * (1 + inputs.headroom_pct / 100)
    return [
        Constraint("throughput (N x min(p, c))", throughput, grown, "MB/s", throughput >= grown,
                   "enough for the target incl. headroom" if throughput >= grown
                   else f"short by {grown - throughput:,.1f} MB/s"),
        Constraint("producer memory for one batch per partition", memory / MIB, inputs.buffer_memory / MIB,
                   "MiB", memory <= inputs.buffer_memory,
                   "fits buffer.memory" if memory <= inputs.buffer_memory
                   else "exceeds buffer.memory: send() blocks up to max.block.ms, batches shrink"),
        Constraint("max useful consumers in one group", partitions, None, "consumers", True,
                   "more consumers than partitions sit idle"),
        Constraint("open files per broker", open_file_handles(partitions, inputs), None, "files", True,
                   "compare with ulimit -n on the brokers"),
        Constraint("unavailability after an unclean broker failure", unavailability_s(partitions, inputs),
                   None, "s", True, f"{leaders_per_broker(partitions, inputs.brokers):,} leaders re-elected"),
        Constraint("controller failover", controller_failover_s(partitions, inputs), None, "s", True,
                   "reads all partition metadata" if inputs.era == "zookeeper" else "Raft quorum election"),
        Constraint("added replication latency", replication_latency_ms(partitions, inputs), None, "ms", True,
                   "one replica fetcher thread per broker pair (num.replica.fetchers=1)"),
        Constraint("partition replicas per broker", per_broker, inputs.constant(broker_key), "replicas",
                   per_broker <= inputs.constant(broker_key), CONSTANTS[broker_key].era),
        Constraint("partitions per cluster", cluster, inputs.constant(cluster_key), "partitions",
                   cluster <= inputs.constant(cluster_key), CONSTANTS[cluster_key].era),
        Constraint("latency rule of thumb (100 x b x r per broker)", per_broker, rule, "replicas",
                   per_broker <= rule, "2015 guidance for latency-sensitive clusters"),
    ]


def cost_curves(inputs: SizingInputs, counts: Sequence[int]) -> dict[str, list[float]]:
    """Each cost at each partition count (for charts): name -> values aligned with ``counts``."""
    inputs.validate()
    curves: dict[str, list[float]] = {}
    for n in counts:
        for c in constraints(int(n), inputs):
            curves.setdefault(c.name, []).append(float(c.value))
    return curves


def curve_counts(chosen: int, points: int = 60) -> list[int]:
    """Partition counts for a chart around ``chosen``: 1 .. max(4x chosen, 12), evenly spread."""
    top = max(4 * chosen, 12)
    step = max(1, top // points)
    return sorted(set(range(1, top + 1, step)) | {chosen})


def summary_text(result: SizingResult) -> str:
    """A plain-language summary a workshop can paste into its notes."""
    i = result.inputs
    bad = [c for c in result.constraints if not c.ok]
    grown = i.target_mb_s * (1 + i.headroom_pct / 100)
    shortfall = shortfall_mb_s(grown, i.producer_mb_s, i.consumer_mb_s, result.seed_formula)
    lines = [
        f"Target {i.target_mb_s:g} MB/s with {i.headroom_pct:g}% headroom; one partition measured "
        f"{i.producer_mb_s:g} MB/s produce and {i.consumer_mb_s:g} MB/s consume.",
        f"Partitions needed: max({result.producer_bound:.2f}, {result.consumer_bound:.2f}) -> "
        f"{result.recommended}"
        + (" (rounded up to a multiple of the brokers)" if i.round_to_brokers else "") + ".",
        f"The seed article's Tt / max(Tp, Tc) would give {result.seed_formula}"
        + (f", short by {shortfall:,.1f} MB/s."
           if result.seed_formula < result.recommended else " (the same here, because p = c)."),
        f"Chosen: {result.chosen} partitions on {i.brokers} brokers, RF {i.replication_factor}, "
        f"{'KRaft' if i.era == 'kraft' else 'ZooKeeper'} cluster.",
    ]
    for c in result.constraints:
        limit = f" (limit {format_number(c.limit)} {c.unit})" if c.limit is not None else ""
        lines.append(f"- {c.name}: {format_number(c.value)} {c.unit}{limit}{'' if c.ok else ' — OVER'}; "
                     f"{c.note}")
    lines.append("All checks pass." if not bad
                 else f"{len(bad)} check(s) fail: " + ", ".join(c.name for c in bad) + ".")
    return "\n".join(lines)


# --------------------------------------------------------------------------- perf-test output


@dataclass(frozen=True)
class PerfResult:
    """The summary of a ``kafka-producer-perf-test.sh`` / ``kafka-consumer-perf-test.sh`` run."""

    tool: Literal["producer", "consumer"]
    mb_per_sec: float
    records_per_sec: float
    records: int
    extra: dict[str, float] = field(default_factory=dict)


# Bounded quantifiers, searched line by line: a 100,000-digit line costs one linear pass, not a backtrack.
_PRODUCER_SUMMARY = re.compile(
    r"(?<![\d.])(?P<records>\d{1,19}) records sent, (?P<rps>[\d.]{1,40}) records/sec \((?P<mbs>[\d.]{1,40}) MB/sec\), "
    r"(?P<avg>[\d.]{1,40}) ms avg latency, (?P<max>[\d.]{1,40}) ms max latency"
)
MAX_PERF_NUMBER: Final = 1e18  # records, MB, rates and milliseconds in a perf-test summary
_NOT_NUMBERS: Final = ("start.time", "end.time", "time", "threadId")


def parse_perf_output(text: str) -> PerfResult:
    """Parse the summary of either perf tool; raises ``SizingError`` naming what was missing.

    Producer: the last ``N records sent, R records/sec (M MB/sec), ...`` line (the final summary).
    Consumer: the header ``start.time, end.time, data.consumed.in.MB, MB.sec, ...`` and its data line;
    ``fetch.MB.sec`` (excluding the group join) is used when present, else ``MB.sec``.  Every number is
    checked (``'1.2.3' records/sec``, ``inf``, a 100,000-digit value are one-line refusals).
    """
    if not isinstance(text, str):
        raise SizingError(f"perf output: expected text, got {type(text).__name__}")
    if len(text) > MAX_PERF_TEXT:
        raise LimitError(f"perf output: at most {MAX_PERF_TEXT:,} characters, got {len(text):,}")
    lines = text.splitlines()
    summaries = [m for line in lines if " records sent, " in line and (m := _PRODUCER_SUMMARY.search(line))]
    if summaries:
        return _producer_result(summaries[-1])
    consumer = _parse_consumer(lines)
    if consumer is not None:
        return consumer
    raise SizingError("perf output: no producer summary ('N records sent, R records/sec (M MB/sec), ...') "
                      "or consumer header ('start.time, end.time, ..., MB.sec, ...') found")


def _producer_result(m: re.Match[str]) -> PerfResult:
    return PerfResult("producer", _perf_number(m["mbs"], "MB/sec"), _perf_number(m["rps"], "records/sec"),
                      int(m["records"]), {"avg_latency_ms": _perf_number(m["avg"], "ms avg latency"),
                                          "max_latency_ms": _perf_number(m["max"], "ms max latency")})


def _perf_number(token: str, column: str) -> float:
    """A number of the paste, finite and within ``MAX_PERF_NUMBER``, or one ``SizingError`` line."""
    try:
        return parse_decimal(token, f"perf output: {column[:40]}", -MAX_PERF_NUMBER, MAX_PERF_NUMBER)
    except InputError as exc:
        raise SizingError(str(exc)) from None


def _parse_consumer(raw_lines: list[str]) -> PerfResult | None:
    lines = [line.strip() for line in raw_lines if line.strip()]
    for i, line in enumerate(lines):
        header = [h.strip() for h in line.split(",")]
        if "MB.sec" not in header:
            continue
        rows = [_consumer_row(header, data) for data in lines[i + 1:] if data.count(",") == len(header) - 1]
        if not rows:
            raise SizingError("perf output: consumer header found but no data line follows it")
        if header[0] == "time":  # --show-detailed-stats: one line per interval; average them
            numbers = {k: sum(r[k] for r in rows) / len(rows) for k in rows[0]}
            for cumulative in ("data.consumed.in.MB", "data.consumed.in.nMsg"):
                numbers[cumulative] = rows[-1].get(cumulative, 0.0)
        else:
            numbers = rows[0]
        mbs = numbers.get("fetch.MB.sec", numbers["MB.sec"])
        rps = numbers.get("fetch.nMsg.sec", numbers.get("nMsg.sec", 0.0))
        return PerfResult("consumer", mbs, rps, int(numbers.get("data.consumed.in.nMsg", 0)), numbers)
    return None


def _consumer_row(header: list[str], line: str) -> dict[str, float]:
    row = dict(zip(header, (v.strip() for v in line.split(","))))
    return {k: _perf_number(v, k) for k, v in row.items() if k not in _NOT_NUMBERS}


def format_number(value: float) -> str:
    """``1234567 -> '1,234,567'``, ``0.0035 -> '0.0035'``: integers with separators, else 4 significant."""
    return f"{int(value):,}" if float(value).is_integer() else f"{value:,.4g}"


def measured_throughput(text: str, tool: Literal["producer", "consumer"]) -> PerfResult:
    """A pasted ``kafka-<tool>-perf-test.sh`` run; ``SizingError`` if it is the other tool's output."""
    parsed = parse_perf_output(text)
    if parsed.tool != tool:
        raise SizingError(f"{tool} perf output: this looks like kafka-{parsed.tool}-perf-test.sh output")
    return parsed


def constraint_rows(result: SizingResult) -> list[dict[str, Any]]:
    """The checks of a result as table rows: check, value, unit, limit, verdict ("meets"/"misses"), note."""
    return [{"check": c.name, "value": format_number(c.value), "unit": c.unit,
             "limit": "" if c.limit is None else format_number(c.limit), "verdict": "meets" if c.ok else "misses",
             "note": c.note}
            for c in result.constraints]
