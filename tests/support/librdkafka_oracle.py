"""An oracle made of real librdkafka consumers: form a classic group on a mock cluster, apply
steps, and record what every member really got.

    spec = GroupSpec("g1", "cooperative-sticky", topics={"t0": 6}, members=[MemberSpec("c0", ["t0"]), ...],
                     steps=[Leave("c2"), Join(MemberSpec("c3", ["t0"])), Subscribe("c0", ["t0", "t1"])])
    record = run_group(spec)          # or run_groups([...]) to run several concurrently

Each consumer (``confluent_kafka.Consumer``, ``group.protocol=classic``) lives on its own thread,
which owns every call on it (librdkafka handles are not shared across threads here) and polls
every 50 ms.  Consumers log with ``debug=assignor``; the leader's lines from
``rd_kafka_assignor_run`` give, per rebalance round, the member array in JoinGroup order (real
member ids, subscriptions) and the assignor's raw answer in its own order.

A step is settled when the last assignor round covers exactly the live members with their
current subscriptions, every partition of every subscribed topic is assigned to exactly one
member, and nothing (assignments, rebalance callbacks, rounds) changed for ``quiet`` seconds.
Every wait is bounded (``OracleTimeout`` with what was seen).  The first round must contain every
initial member (otherwise ``FormationSplit``: retry with another group id).

Step kinds: ``Leave`` (``close()``; a static member is expired by the mock after
``session.timeout.ms``), ``Join``, ``Subscribe``.  "Partitions added" is impossible on the mock
(no partition-count change in its API).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from support.mock_cluster import MockCluster

SESSION_TIMEOUT_MS = 3000
HEARTBEAT_MS = 250
INITIAL_DELAY_MS = 1500
POLL_S = 0.05

TP = tuple[str, int]
_SEQ = itertools.count()


class OracleError(RuntimeError):
    """The real group did not behave as the oracle needs (message says what was seen)."""


class OracleTimeout(OracleError):
    pass


class Retryable(OracleError):
    """The run hit a mock-cluster race, not librdkafka behaviour: run the group again."""


class FormationSplit(Retryable):
    """The initial members did not all make the first rebalance round."""


class SyncRace(Retryable):
    """A member missed a round's assignment (see ``GroupDriver._check_clean``)."""


@dataclass
class MemberSpec:
    label: str
    topics: list[str]
    rack: str | None = None
    instance_id: str | None = None


@dataclass
class Leave:
    label: str


@dataclass
class Join:
    member: MemberSpec


@dataclass
class Subscribe:
    label: str
    topics: list[str]


Step = Leave | Join | Subscribe


@dataclass
class GroupSpec:
    group_id: str
    strategy: str
    topics: dict[str, int]
    members: list[MemberSpec]
    steps: list[Step] = field(default_factory=list)
    brokers: int = 3
    broker_racks: dict[int, str] = field(default_factory=dict)
    replication: int = 1


@dataclass
class Round:
    """One ``rd_kafka_assignor_run`` as the leader logged it."""

    seq: int
    leader: str
    members: list[tuple[str, list[str]]]  # (member id, subscribed topics) in JoinGroup order
    raw: dict[str, list[TP]] = field(default_factory=dict)  # in the assignor's order
    done: bool = False


@dataclass
class StepRecord:
    """A settled group: who is in it (JoinGroup order) and what each member holds."""

    members: list[MemberSpec]  # live members in JoinGroup order
    member_ids: dict[str, str]  # label -> real member id
    assignment: dict[str, list[TP]]  # label -> partitions (sorted)
    rounds: list[Round]
    events: dict[str, list[tuple[int, str, list[TP]]]]  # label -> (seq, kind, partitions) callbacks
    seconds: float = 0.0
    converged: bool = True  # False: still rebalancing after ``max_rounds`` rounds (the run stops there)


@dataclass
class GroupRecord:
    """What the group did.  ``crashed``: the consumers' process died (e.g. ``"SIGSEGV"``) while
    applying step ``len(steps)`` (0: forming); ``member_ids`` then holds the ids seen so far."""

    spec: GroupSpec
    partition_racks: dict[str, list[list[str]]]
    steps: list[StepRecord]
    seconds: float = 0.0
    crashed: str | None = None
    member_ids: dict[str, str] = field(default_factory=dict)
    retries: list[str] = field(default_factory=list)  # mock-cluster races that forced a rerun


# ---------------------------------------------------------------- leader log parsing

_LINE = re.compile(r"^(?P<fac>\S+) \[[^\]]*\] \[thrd:[^\]]*\]: (?P<msg>.*)$", re.S)
_RUN = re.compile(r'^Group "(?P<g>.*)" running (?P<s>\S+) assignor for (?P<n>\d+) member\(s\)')
_MEMBER = re.compile(r'^ Member "(?P<id>[^"]*)"(?P<me> \(me\))? with \d+ owned partition\(s\) and '
                     r'(?P<k>\d+) subscribed topic\(s\):')
_DONE = re.compile(r'^Group "(?P<g>.*)" (?P<s>\S+) assignment for (?P<n>\d+) member\(s\) finished')
_ASSIGNED = re.compile(r'^ Member "(?P<id>[^"]*)"(?: \(me\))? assigned (?P<k>\d+) partition\(s\):')
_TOPIC = re.compile(r"^  (?P<t>.+) \[(?P<p>-?\d+)\]$")
_FAILED = re.compile(r"failed to run assignor|assignment failed", re.I)


class LogCollector(logging.Handler):
    """Receives one consumer's librdkafka log lines (delivered by its poll) and parses rounds.

    States: ``idle`` -> ``members`` (n member headers, each followed by its topics) -> ``wait``
    (the assignor's own lines) -> ``assigned`` (n member headers, each followed by its
    partitions) -> ``idle``.
    """

    def __init__(self, label: str) -> None:
        super().__init__(logging.DEBUG)
        self.label = label
        self.lines: list[tuple[int, str]] = []
        self.rounds: list[Round] = []
        self.errors: list[str] = []
        self._state = "idle"
        self._round: Round | None = None
        self._count = 0
        self._left = 0

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        match = _LINE.match(text)
        msg = match.group("msg") if match else text
        seq = next(_SEQ)
        self.lines.append((seq, msg))
        if record.levelno >= logging.ERROR or _FAILED.search(msg):
            self.errors.append(msg)
        self._parse(seq, msg)

    def _parse(self, seq: int, msg: str) -> None:
        run = _RUN.match(msg)
        if run:
            self._round = Round(seq=seq, leader="", members=[])
            self._count = int(run.group("n"))
            self._state, self._left = ("members", 0) if self._count else ("wait", 0)
            return
        r = self._round
        if r is None:
            return
        topic = _TOPIC.match(msg)
        if self._state == "members":
            member = _MEMBER.match(msg)
            if member and self._left == 0:
                r.members.append((member.group("id"), []))
                r.leader = member.group("id") if member.group("me") else r.leader
                self._left = int(member.group("k"))
            elif topic and self._left > 0:
                r.members[-1][1].append(topic.group("t"))
                self._left -= 1
            if len(r.members) == self._count and self._left == 0:
                self._state = "wait"
        elif self._state == "wait":
            if _DONE.match(msg):
                self._state = "assigned"
                if self._count == 0:
                    self._close()
        elif self._state == "assigned":
            assigned = _ASSIGNED.match(msg)
            if assigned and self._left == 0:
                r.raw[assigned.group("id")] = []
                self._left = int(assigned.group("k"))
            elif topic and self._left > 0:
                r.raw[list(r.raw)[-1]].append((topic.group("t"), int(topic.group("p"))))
                self._left -= 1
            if len(r.raw) == self._count and self._left == 0:
                self._close()

    def _close(self) -> None:
        assert self._round is not None
        self._round.done = True
        self.rounds.append(self._round)
        self._round = None
        self._state = "idle"


# ---------------------------------------------------------------- one consumer on its own thread


class ConsumerWorker(threading.Thread):
    """Owns one ``confluent_kafka.Consumer``: subscribes, polls, records, obeys commands."""

    def __init__(self, spec: MemberSpec, conf: dict[str, Any],
                 on_member: Callable[[str, str], None] | None = None) -> None:
        super().__init__(name=f"consumer-{spec.label}", daemon=True)
        self.spec = spec
        self.on_member = on_member
        self.conf = conf
        self.collector = LogCollector(spec.label)
        self.commands: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.assignment: list[TP] = []
        self.member_id = ""
        self.events: list[tuple[int, str, list[TP]]] = []
        self.error: BaseException | None = None
        self.closed = threading.Event()
        self.started_polling = threading.Event()
        self.last_change = time.monotonic()

    def _logger(self) -> logging.Logger:
        logger = logging.getLogger(f"kpl.oracle.{id(self)}")
        logger.handlers = [self.collector]
        logger.setLevel(logging.DEBUG)
        logger.propagate = False
        return logger

    def _event(self, kind: str) -> Callable[[Any, list[Any]], None]:
        def callback(consumer: Any, partitions: list[Any]) -> None:
            self.events.append((next(_SEQ), kind, sorted((p.topic, p.partition) for p in partitions)))
            self.last_change = time.monotonic()
        return callback

    def _subscribe(self, consumer: Any, topics: list[str]) -> None:
        consumer.subscribe(list(topics), on_assign=self._event("assign"), on_revoke=self._event("revoke"),
                           on_lost=self._event("lost"))

    def run(self) -> None:
        from confluent_kafka import Consumer

        try:
            consumer = Consumer(self.conf, logger=self._logger())
            self._subscribe(consumer, self.spec.topics)
            self.started_polling.set()
            while True:
                try:
                    command, arg = self.commands.get_nowait()
                except queue.Empty:
                    command, arg = "", None
                if command == "close":
                    consumer.close()
                    return
                if command == "subscribe":
                    self._subscribe(consumer, arg)
                consumer.poll(POLL_S)
                assignment = sorted((p.topic, p.partition) for p in consumer.assignment())
                member_id = consumer.memberid() or ""
                if member_id != self.member_id and self.on_member is not None:
                    self.on_member(self.spec.label, member_id)
                if assignment != self.assignment or member_id != self.member_id:
                    self.assignment, self.member_id = assignment, member_id
                    self.last_change = time.monotonic()
        except BaseException as exc:  # reported by the driver
            self.error = exc
        finally:
            self.closed.set()


# ---------------------------------------------------------------- one group


def replica_brokers(brokers: int, partition: int, rf: int) -> list[int]:
    """The mock's replica placement (``rd_kafka_mock_partition_assign_replicas``): rf consecutive
    broker ids (1..brokers, wrapping) starting at index ``(partition * rf) % brokers``."""
    first = (partition * rf) % brokers
    return [1 + (first + i) % brokers for i in range(min(rf, brokers))]


def partition_racks(spec: GroupSpec) -> dict[str, list[list[str]]]:
    """Replica racks per partition of the spec's topics (empty without broker racks)."""
    if not spec.broker_racks:
        return {}
    return {topic: [sorted({spec.broker_racks[b] for b in replica_brokers(spec.brokers, p, spec.replication)
                            if b in spec.broker_racks}) for p in range(count)]
            for topic, count in spec.topics.items()}


def _consumer_conf(spec: GroupSpec, member: MemberSpec, bootstrap: str) -> dict[str, Any]:
    conf: dict[str, Any] = {
        "bootstrap.servers": bootstrap,
        "group.id": spec.group_id,
        "client.id": member.label,
        "group.protocol": "classic",
        "partition.assignment.strategy": spec.strategy,
        "session.timeout.ms": SESSION_TIMEOUT_MS,
        "heartbeat.interval.ms": HEARTBEAT_MS,
        "enable.auto.commit": False,
        "debug": "assignor",
    }
    if member.rack:
        conf["client.rack"] = member.rack
    if member.instance_id:
        conf["group.instance.id"] = member.instance_id
    return conf


class GroupDriver:
    """Runs one ``GroupSpec`` on its own mock cluster."""

    def __init__(self, spec: GroupSpec, step_timeout: float = 40.0, quiet: float = 0.6, max_rounds: int = 6,
                 idle_after: float = 9.0,
                 on_step: Callable[[StepRecord], None] | None = None,
                 on_member: Callable[[str, str], None] | None = None) -> None:
        self.spec = spec
        self.max_rounds = max_rounds
        self.idle_after = idle_after
        self.order: list[str] = []  # labels in the last JoinGroup order
        self.on_step = on_step
        self.on_member = on_member
        self.step_timeout = step_timeout
        self.quiet = quiet
        self.cluster: MockCluster | None = None
        self.workers: dict[str, ConsumerWorker] = {}  # live members
        self.retired: list[ConsumerWorker] = []
        self.round_cursor = 0
        self.event_cursor: dict[str, int] = {}

    # --- cluster and members

    def _start(self, member: MemberSpec) -> None:
        assert self.cluster is not None
        conf = _consumer_conf(self.spec, member, self.cluster.bootstrap)
        worker = ConsumerWorker(member, conf, self.on_member)
        self.workers[member.label] = worker
        worker.start()

    def _partition_racks(self) -> dict[str, list[list[str]]]:
        return partition_racks(self.spec)

    # --- observation

    def all_rounds(self) -> list[Round]:
        rounds = [r for w in [*self.workers.values(), *self.retired] for r in w.collector.rounds]
        return sorted(rounds, key=lambda r: r.seq)

    def _errors(self) -> list[str]:
        out = []
        for w in [*self.workers.values(), *self.retired]:
            if w.error is not None:
                out.append(f"{w.spec.label}: {w.error!r}")
            out.extend(f"{w.spec.label}: {e}" for e in w.collector.errors)
        return out

    def _settled(self) -> tuple[bool, str]:
        live = self.workers
        if any(not w.member_id for w in live.values()):
            return False, "members without member id"
        rounds = self.all_rounds()[self.round_cursor:]
        if not rounds:
            return False, "no assignor round yet"
        last = rounds[-1]
        ids = {w.member_id: label for label, w in live.items()}
        if sorted(m for m, _ in last.members) != sorted(ids):
            return False, f"last round members {[m for m, _ in last.members]} != live {sorted(ids)}"
        for member_id, topics in last.members:
            want = sorted(t for t in set(live[ids[member_id]].spec.topics) if t in self.spec.topics)
            if sorted(topics) != want:
                return False, f"{ids[member_id]} subscribed {topics} in the last round, wants {want}"
        subscribed = {t for w in live.values() for t in w.spec.topics if t in self.spec.topics}
        everything = sorted((t, p) for t in subscribed for p in range(self.spec.topics[t]))
        held = sorted(tp for w in live.values() for tp in w.assignment)
        if held != everything:
            return False, f"{len(held)} partitions held, {len(everything)} to hold"
        if time.monotonic() - max(w.last_change for w in live.values()) < self.quiet:
            return False, "recent change"
        return True, ""

    def _wait_settled(self, what: str, may_idle: bool = False) -> bool:
        """Wait until settled (True) or until the step has run ``max_rounds`` rounds (False).

        ``may_idle``: the step may trigger no rebalance at all (a cooperative consumer that
        subscribes to an uncached topic drops partitions without rejoining): settled when no
        round came for ``idle_after`` seconds and nothing changed for ``quiet`` seconds.
        """
        started = time.monotonic()
        deadline = started + self.step_timeout
        reason = ""
        while time.monotonic() < deadline:
            quiet = time.monotonic() - max(w.last_change for w in self.workers.values()) >= self.quiet
            if (may_idle and len(self.all_rounds()) == self.round_cursor and quiet
                    and time.monotonic() - started >= self.idle_after):
                return True
            errors = self._errors()
            if errors:
                raise OracleError(f"{self.spec.group_id} {what}: {errors[:3]}")
            ok, reason = self._settled()
            if ok:
                time.sleep(self.quiet)  # one more quiet period: nothing may be pending
                ok, reason = self._settled()
                if ok:
                    return True
            if len(self.all_rounds()) - self.round_cursor >= self.max_rounds:
                return False
            time.sleep(0.05)
        raise OracleTimeout(f"{self.spec.group_id} {what}: not settled after {self.step_timeout}s ({reason})")

    def _check_clean(self, rounds: list[Round], events: dict[str, list[tuple[int, str, list[TP]]]],
                     converged: bool) -> None:
        """Every live member must get exactly one assignment (an ``on_assign`` callback) per round,
        before the next round starts.

        The mock completes a generation as soon as the LEADER's SyncGroup arrives (it carries
        every member's assignment), so a follower whose SyncGroup comes later (CPU contention)
        gets INVALID_REQUEST and rejoins: an extra round no real broker would run, or a member
        joining a round without the assignment of the previous one.
        """
        for label, evs in events.items():
            seqs = [seq for seq, kind, _ in evs if kind == "assign"]
            for k in range(1, len(rounds)):
                if sum(1 for seq in seqs if seq < rounds[k].seq) != k:
                    raise SyncRace(f"{self.spec.group_id}: {label} missed round {k}'s assignment")
            if converged and len(seqs) != len(rounds):
                raise SyncRace(f"{self.spec.group_id}: {label} got {len(seqs)} assignments in "
                               f"{len(rounds)} rounds")

    def _record(self, started: float, converged: bool = True) -> StepRecord:
        rounds = self.all_rounds()[self.round_cursor:]
        if not converged:
            rounds = rounds[:self.max_rounds]
        self.round_cursor += len(rounds)
        ids = {w.member_id: label for label, w in self.workers.items()}
        if rounds:
            self.order = [ids[m] for m, _ in rounds[-1].members]
        order = [label for label in self.order if label in self.workers]
        events: dict[str, list[tuple[int, str, list[TP]]]] = {}
        for label, w in self.workers.items():
            start = self.event_cursor.get(label, 0)
            events[label] = list(w.events[start:])
            self.event_cursor[label] = len(w.events)
        self._check_clean(rounds, events, converged)
        return StepRecord(
            members=[self.workers[label].spec for label in order],
            member_ids={label: w.member_id for label, w in self.workers.items()},
            assignment={label: list(w.assignment) for label, w in self.workers.items()},
            rounds=rounds,
            events=events,
            seconds=time.monotonic() - started,
            converged=converged,
        )

    # --- steps

    def _apply(self, step: Step) -> None:
        if isinstance(step, Leave):
            worker = self.workers.pop(step.label)
            worker.commands.put(("close", None))
            if not worker.closed.wait(self.step_timeout):
                raise OracleTimeout(f"{self.spec.group_id}: {step.label} did not close")
            self.retired.append(worker)
            self.event_cursor.pop(step.label, None)
        elif isinstance(step, Join):
            self._start(step.member)
        else:
            worker = self.workers[step.label]
            old = worker.spec
            worker.spec = MemberSpec(old.label, list(step.topics), old.rack, old.instance_id)
            worker.commands.put(("subscribe", list(step.topics)))

    def run(self) -> GroupRecord:
        started = time.monotonic()
        self.cluster = MockCluster(self.spec.brokers, self.spec.broker_racks, INITIAL_DELAY_MS)
        try:
            for topic, count in self.spec.topics.items():
                self.cluster.create_topic(topic, count, self.spec.replication)
            for member in self.spec.members:
                self._start(member)
            converged = self._wait_settled("formation")
            first = self.all_rounds()[0]
            if len(first.members) != len(self.spec.members):
                raise FormationSplit(f"{self.spec.group_id}: first round had {len(first.members)} of "
                                     f"{len(self.spec.members)} members")
            steps = [self._record(started, converged)]
            self._emit(steps[-1])
            for step in self.spec.steps:
                if not converged:
                    break
                t0 = time.monotonic()
                self._apply(step)
                converged = self._wait_settled(f"after {step}", may_idle=isinstance(step, Subscribe))
                steps.append(self._record(t0, converged))
                self._emit(steps[-1])
            return GroupRecord(self.spec, self._partition_racks(), steps, time.monotonic() - started)
        finally:
            self.close()

    def _emit(self, record: StepRecord) -> None:
        if self.on_step is not None:
            self.on_step(record)

    def close(self) -> None:
        for worker in self.workers.values():
            worker.commands.put(("close", None))
        for worker in self.workers.values():
            worker.closed.wait(15)
        self.retired.extend(self.workers.values())
        self.workers = {}
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


def run_group(spec: GroupSpec, retries: int = 3, on_retry: Callable[[str], None] | None = None,
              **kwargs: Any) -> GroupRecord:
    """Run one group in THIS process; a mock-cluster race (``Retryable``) is retried under a
    fresh group id.  A librdkafka crash takes the process with it: prefer ``run_group_isolated``."""
    for attempt in range(retries + 1):
        try:
            return GroupDriver(spec, **kwargs).run()
        except Retryable as exc:
            if attempt == retries:
                raise
            spec = GroupSpec(**{**spec.__dict__, "group_id": f"{spec.group_id}-r{attempt + 1}"})
            if on_retry is not None:
                on_retry(str(exc))
    raise AssertionError("unreachable")


# ---------------------------------------------------------------- JSON, and one process per group

_STEP_KINDS: dict[str, type] = {"leave": Leave, "join": Join, "subscribe": Subscribe}


def spec_to_json(spec: GroupSpec) -> dict[str, Any]:
    out = asdict(spec)
    out["steps"] = [{"kind": next(k for k, t in _STEP_KINDS.items() if isinstance(st, t)), **asdict(st)}
                    for st in spec.steps]
    out["broker_racks"] = {str(b): r for b, r in spec.broker_racks.items()}
    return out


def spec_from_json(data: dict[str, Any]) -> GroupSpec:
    steps: list[Step] = []
    for st in data["steps"]:
        kind = st.pop("kind")
        if kind == "join":
            steps.append(Join(MemberSpec(**st["member"])))
        else:
            steps.append(_STEP_KINDS[kind](**st))
    return GroupSpec(**{**data, "members": [MemberSpec(**m) for m in data["members"]], "steps": steps,
                        "broker_racks": {int(b): r for b, r in data["broker_racks"].items()}})


def _step_to_json(record: StepRecord) -> dict[str, Any]:
    return asdict(record)


def _step_from_json(data: dict[str, Any]) -> StepRecord:
    def tps(items: list[Any]) -> list[TP]:
        return [(t, p) for t, p in items]

    return StepRecord(
        members=[MemberSpec(**m) for m in data["members"]],
        member_ids=data["member_ids"],
        assignment={k: tps(v) for k, v in data["assignment"].items()},
        rounds=[Round(r["seq"], r["leader"], [(m, list(t)) for m, t in r["members"]],
                      {k: tps(v) for k, v in r["raw"].items()}, r["done"]) for r in data["rounds"]],
        events={k: [(seq, kind, tps(p)) for seq, kind, p in v] for k, v in data["events"].items()},
        seconds=data["seconds"],
        converged=data["converged"],
    )


def _child_main() -> int:
    """``python librdkafka_oracle.py``: run the GroupSpec read from stdin, one JSON line per event."""
    lock = threading.Lock()

    def say(kind: str, payload: Any) -> None:
        with lock:
            sys.stdout.write(json.dumps({"kind": kind, "data": payload}) + "\n")
            sys.stdout.flush()

    spec = spec_from_json(json.loads(sys.stdin.read()))
    try:
        record = run_group(spec, on_step=lambda r: say("step", _step_to_json(r)),
                           on_member=lambda label, mid: say("member", [label, mid]),
                           on_retry=lambda why: say("reset", why))
    except OracleError as exc:
        say("error", f"{type(exc).__name__}: {exc}")
        return 1
    say("done", {"partition_racks": record.partition_racks, "seconds": record.seconds,
                 "group_id": record.spec.group_id})
    return 0


def run_group_isolated(spec: GroupSpec, timeout: float = 300.0) -> GroupRecord:
    """Run one group in a child process, so that a librdkafka crash (abort, segfault) is recorded
    as ``GroupRecord.crashed`` instead of killing the caller.  Raises ``OracleError`` otherwise."""
    tests_dir = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tests_dir), os.environ.get("PYTHONPATH", "")])}
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-X", "faulthandler", str(Path(__file__).resolve())],
                          input=json.dumps(spec_to_json(spec)), capture_output=True, text=True,
                          timeout=timeout, env=env)
    steps: list[StepRecord] = []
    member_ids: dict[str, str] = {}
    retries: list[str] = []
    done: dict[str, Any] | None = None
    error = ""
    for line in proc.stdout.splitlines():
        event = json.loads(line)
        kind, data = event["kind"], event["data"]
        if kind == "step":
            steps.append(_step_from_json(data))
        elif kind == "member":
            member_ids[data[0]] = data[1]
        elif kind == "reset":
            steps, member_ids = [], {}
            retries.append(data)
        elif kind == "done":
            done = data
        elif kind == "error":
            error = data
    if done is not None:
        final = GroupSpec(**{**spec.__dict__, "group_id": done["group_id"]})
        return GroupRecord(final, done["partition_racks"], steps, done["seconds"], retries=retries)
    if proc.returncode < 0:
        name = signal.Signals(-proc.returncode).name
        return GroupRecord(spec, partition_racks(spec), steps, time.monotonic() - started, crashed=name,
                           member_ids=member_ids, retries=retries)
    raise OracleError(error or f"{spec.group_id}: child exited {proc.returncode}: {proc.stderr[-2000:]}")


def run_groups(specs: Sequence[GroupSpec], parallel: int = 8,
               timeout: float = 300.0) -> list[GroupRecord | BaseException]:
    """Run groups concurrently, each in its own process on its own mock cluster; failures are
    returned, not raised."""

    def one(spec: GroupSpec) -> GroupRecord | BaseException:
        try:
            return run_group_isolated(spec, timeout)
        except BaseException as exc:  # noqa: BLE001 - reported per group
            return exc

    with ThreadPoolExecutor(max_workers=max(1, parallel)) as pool:
        return list(pool.map(one, specs))


if __name__ == "__main__":
    sys.exit(_child_main())
