"""The command line's door: every command estimates its work with the cost model (``engine.cost``) before
any work starts, and refuses a request over ``engine.cost.CLI_CEILING`` (about two minutes and a few GiB on
the 2-core reference machine) with one line naming the estimate, the ceiling and what drives it.

Size limits (``engine.inputs``, each command's own) bound what a request *is*; the estimate bounds what it
*asks for*: 2,000,000 partitions x 200 steps is a 360 KB document.  The shapes each command is estimated
from (docs/command-line.md, "Limits"):

- ``assign``: the scenario (partitions, members, subscriptions, steps; sticky's general path when
  subscriptions differ; cooperative follow-up rounds; the client: Java or librdkafka);
- ``server-assign``: the same shape for KIP-848's uniform or range;
- ``hash``: keys and partition counts; ``coordinator``: group ids and their UTF-16 characters;
- ``wheel``: tasks and the wheel levels the largest delay needs (``wheel_levels``);
- ``replicas``: replicas and the brokers an uneven rack layout makes the placement walk past
  (``replica_scan``);
- ``produce``: records and faults; ``log``: records, batches and cleaner actions; ``import``: the text's bytes;
- ``load``: the input's bytes on this machine's disk and its format, the partition counts, the consumer counts x
  strategies assigned, and Spark's start, checked before Spark starts (local mode; on a cluster or Spark Connect
  only this machine's part: the start and the assignments).  Spark's start is about 30 s of the 120: a
  local run fits the ceiling up to about 145 MB of Parquet or 235 MB of CSV (``estimate_load``);
- ``share-deliver``: the case read and run: its events, its log batches (the log's and the produced ones) and
  the records the in-flight window may hold (``window_cap`` in ``engine.share.case``: 4 x (max.record.locks +
  the largest fetch + the largest log batch), at most the log's span; Kafka's window can outgrow the lock limit,
  and a run whose window passes the cap is stopped), and for the CLI its answer, which runs the case again and
  writes the partition's state after every event: each step's result and state, and events x window records at
  worst (``estimate_share_deliver_answer``, fitted on that worst case and on steps with an empty window).  Beside
  the estimate one semantic limit stays: the window cap <= 200,000 records.
- ``share-assign``: per step partitions, visited topics, members, subscriptions (the heterogeneous path's
  counted again), and what members hold and are answered, each member's holdings followed from step to step
  (``engine.cost.share``: given ``current_assignment``s, else the previous step's answer; on the heterogeneous
  path a member keeps the partitions of topics no member subscribes to any more, so a chain of such steps holds
  members x steps² partitions while its document stays small), and the topic comparisons of members whose
  topics change (``step_shapes`` in ``engine.coordinator.share_assignment``).  Such a chain, or millions of
  differing subscriptions that members change from step to step, is refused by the estimate.

Worked example (asserted by tests/engine/test_worked_examples.py): Kafka's 200,000-partition shape passes, a
request for 2,000,000 partitions x 20,000 members with differing subscriptions is refused:

>>> from engine.scenario import GroupState, Member, Scenario
>>> names = [f"t{i}" for i in range(100)]
>>> big = GroupState(dict.fromkeys(names, 2_000), tuple(Member(f"c{i}", tuple(names)) for i in range(2_000)))
>>> check_assign(Scenario(steps=(big, big)), "cooperative-sticky")
>>> names = [f"t{i}" for i in range(20)]
>>> huge = GroupState(dict.fromkeys(names, 100_000), tuple(Member(f"c{i}", tuple(names[: 1 + i % 20]))
...                                                        for i in range(20_000)))
>>> check_assign(Scenario(steps=(huge,)), "sticky")
Traceback (most recent call last):
...
engine.errors.LimitError: assign: estimated ... s and ... MiB, over the command line's ceiling of 120 s and \
4,096 MiB (2,000,000 partitions x 20,000 members (sticky, differing subscriptions), 1 step)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from engine.cost import (
    CLI_CEILING,
    Estimate,
    check,
    estimate_assignment,
    estimate_coordinator,
    estimate_hash,
    estimate_import,
    estimate_load,
    estimate_partition_log,
    estimate_produce,
    estimate_replicas,
    estimate_server_assignment,
    estimate_share_assignment,
    estimate_share_deliver_answer,
    estimate_share_delivery,
    estimate_wheel,
)
from engine.cost.assignment import estimate_cli_io
from engine.cost.computations import ShareStepShape, replica_scan, utf16_length, wheel_levels
from engine.errors import LimitError

if TYPE_CHECKING:  # attributes only: importing the scenario model (pydantic) is for assign alone
    from engine.scenario import Scenario

__all__ = ["check_assign", "check_budget", "check_coordinator", "check_estimate", "check_hash", "check_import",
           "check_load", "check_log", "check_produce", "check_replicas", "check_server_assign", "check_share_assign",
           "check_share_delivery", "check_wheel",
           "replica_scan", "utf16_length", "wheel_levels"]


def check_estimate(what: str, estimate: Estimate) -> None:
    """Refuse ``estimate`` over ``CLI_CEILING``: one line, ``"<command>: estimated ... (drivers)"``."""
    try:
        check(estimate, CLI_CEILING)
    except LimitError as exc:
        raise LimitError(f"{what}: {exc}") from None


def check_budget(what: str, work: int, budget: int, counted: str) -> None:
    """A fixed count of units for a command the cost model does not cover yet (prefer ``check_estimate``)."""
    if work > budget:
        raise LimitError(f"{what}: asks for {work:,} units of work, the budget is {budget:,} ({counted})")


def check_assign(scenario: Scenario, strategy: str, client: str = "java") -> None:
    """The replay and the command's JSON in and out (whose estimate adds its seconds and its bytes: the
    answer is built while the replay's results are held)."""
    replay, io = estimate_assignment(scenario, strategy, client), estimate_cli_io(scenario, strategy)
    check_estimate("assign", Estimate(replay.seconds + io.seconds, replay.peak_bytes + io.peak_bytes,
                                      replay.drivers))


def check_server_assign(scenario: Scenario, assignor: str) -> None:
    replay, io = estimate_server_assignment(scenario, assignor), estimate_cli_io(scenario, assignor)
    check_estimate("server-assign", Estimate(replay.seconds + io.seconds, replay.peak_bytes + io.peak_bytes,
                                             replay.drivers))


def check_hash(keys: int, partition_counts: int) -> None:
    check_estimate("hash", estimate_hash(keys, partition_counts))


def check_coordinator(group_ids: Iterable[str]) -> None:
    ids = list(group_ids)
    check_estimate("coordinator", estimate_coordinator(len(ids), sum(utf16_length(g) for g in ids)))


def check_wheel(tick_ms: int, wheel_size: int, delays: Sequence[int]) -> None:
    levels = wheel_levels(tick_ms, wheel_size, max(delays, default=0))
    check_estimate("wheel", estimate_wheel(len(delays), levels))


def check_replicas(racks: Sequence[str | None], partitions: int, replication_factor: int) -> None:
    """``racks`` in broker order (None = no rack)."""
    check_estimate("replicas", estimate_replicas(partitions, replication_factor, replica_scan(racks)))


def check_produce(records: int, faults: int) -> None:
    check_estimate("produce", estimate_produce(records, faults))


def check_log(records: int, batches: int, cleaner_actions: int) -> None:
    check_estimate("log", estimate_partition_log(records, batches, cleaner_actions))


def check_import(text_bytes: int) -> None:
    check_estimate("import", estimate_import(text_bytes))


def check_load(input_bytes: int | None, fmt: str, partition_counts: Sequence[int], consumer_counts: int,
               strategies: int) -> None:
    """``python -m engine load`` before Spark starts (its start counted): ``estimate_load``."""
    check_estimate("load", estimate_load(input_bytes, fmt, partition_counts, consumer_counts, strategies))


def check_share_assign(steps: Sequence[ShareStepShape]) -> None:
    check_estimate("share-assign", estimate_share_assignment(steps))


MAX_SHARE_IN_FLIGHT: Final = 200_000


def check_share_delivery(events: int, in_flight: int, answer: bool = False, batches: int = 0) -> None:
    """The window cap (a semantic limit: a run whose window outgrows it is stopped), then the cost model's
    estimate of reading and running the case (``batches``: the log's and the produced log batches) and, for the
    CLI (``answer``), of its answer: every step's state, held and written as JSON."""
    check_budget("share-deliver", in_flight, MAX_SHARE_IN_FLIGHT,
                 "records the in-flight window may hold: 4 x (max.record.locks + largest max_records + "
                 "largest log batch), at most the log's span")
    estimate = estimate_share_delivery(events, in_flight, batches)
    if answer:
        written = estimate_share_deliver_answer(events, in_flight)
        drivers = written.drivers if written.seconds >= estimate.seconds else estimate.drivers
        estimate = Estimate(estimate.seconds + written.seconds, estimate.peak_bytes + written.peak_bytes, drivers)
    check_estimate("share-deliver", estimate)
