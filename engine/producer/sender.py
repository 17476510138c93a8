"""The producer's I/O thread and its one connection: ``Sender`` (``runOnce``, ``sendProducerData``,
``completeBatch``, ``canRetry``, ``failBatch``) over ``NetworkClient``'s in-flight requests, and a broker that
leads every partition and checks idempotent batches with ``ProducerStateManager``.

Timing, as ``../shared/vectors/produce.README.md`` models the network (checked against Kafka's own classes):

* A produce request carries at most one batch per partition; ``max.in.flight.requests.per.connection``
  requests may be unanswered at once (``InFlightRequests.canSendMore``).
* The broker appends (or refuses) a request's batches when it is sent; the answer is read ``2 x latency_ms``
  later, by the first poll at or after that instant: with ``latency_ms`` 0, by the poll of the very
  ``runOnce`` that sent it.  ``acks=0``: no answer; the batches complete at the next poll.
* ``sendProducerData`` returns the poll timeout: 0 while a partition is sendable on a ready node (the Sender
  runs again at once), else the least of the next linger/backoff check, the reconnect backoff and the next
  batch expiry (``delivery.timeout.ms``, ``expiredBatches`` and ``getExpiredInflightBatches``).

Modelled from ``NetworkClient`` but **not checked against Kafka** (the vectors leave them out): request
timeouts and disconnects.  ``request.timeout.ms`` without an answer closes the connection
(``handleTimedOutRequests``): every in-flight request fails with ``REQUEST_TIMED_OUT``, oldest first, and the
node is reconnected after ``reconnect.backoff.ms`` (50 ms, no jitter).  Faults per request number (1 = the
first produce request sent):

* ``not_leader``: the broker answers every batch ``NOT_LEADER_OR_FOLLOWER`` and writes nothing (checked).
* ``timeout_after_write``: the broker appends this request and the later ones on the connection, but no
  answer reaches the client any more: they time out and are retried (duplicates without idempotence).
* ``timeout_before_write``: this request and the later ones on the connection never reach the broker.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from engine.producer.accumulator import ProducerBatch, RecordAccumulator, backoff
from engine.producer.producer_config import MAX_REQUEST_SIZE, RECONNECT_BACKOFF_MS, ProducerSettings
from engine.producer.transaction_manager import TransactionManager
from engine.storage.producer_state import ProducerStateManager

FAULTS: Final = ("timeout_after_write", "timeout_before_write", "not_leader")
RETRIABLE: Final = {"REQUEST_TIMED_OUT", "NETWORK_EXCEPTION", "NOT_LEADER_OR_FOLLOWER"}
PRODUCER_ID: Final = 1000
NO_TIMEOUT: Final = 2**63 - 1  # Long.MAX_VALUE: nothing to wait for


@dataclass
class Request:
    """An in-flight produce request and what became of it."""

    number: int
    sent_ms: int
    batches: list[ProducerBatch]
    fault: str | None
    reaches_broker: bool  # False: lost on the way (``timeout_before_write``)
    answered_ms: int | None  # None: no answer will be read (acks=0, or a stalled connection)
    broker: dict[int, tuple[str, int | None]] = field(
        default_factory=dict
    )  # batch id -> (outcome, base offset)
    client: str = ""
    attempt_of: dict[int, int] = field(default_factory=dict)  # batch id -> attempt number
    sequences: dict[int, tuple[int, int]] = field(default_factory=dict)  # batch id -> (epoch, base sequence)


@dataclass(frozen=True)
class LogEntry:
    """One record in a partition's log on the broker."""

    offset: int
    record: int
    batch: int
    request: int
    epoch: int
    sequence: int


@dataclass
class Broker:
    """The partition leader: a log per partition and, per partition, the producer state."""

    logs: dict[int, list[LogEntry]] = field(default_factory=dict)
    states: dict[int, ProducerStateManager] = field(default_factory=dict)

    def handle(self, request: Request, idempotent: bool) -> None:
        for batch in request.batches:
            p = batch.partition
            if request.fault == "not_leader":
                request.broker[batch.id] = ("NOT_LEADER_OR_FOLLOWER", None)
                continue
            epoch, base_seq = request.sequences.get(batch.id, (-1, -1))
            log = self.logs.setdefault(p, [])
            if idempotent:
                state = self.states.setdefault(p, ProducerStateManager())
                last_seq = base_seq + batch.record_count - 1
                decision = state.analyze(PRODUCER_ID, epoch, base_seq, last_seq)
                if decision.outcome == "duplicate" and decision.duplicate is not None:
                    request.broker[batch.id] = ("duplicate", decision.duplicate.first_offset)
                    continue
                if decision.outcome != "append":
                    request.broker[batch.id] = (decision.outcome, None)
                    continue
            first = len(log)
            for i, r in enumerate(batch.records):
                log.append(
                    LogEntry(
                        first + i,
                        r.number,
                        batch.id,
                        request.number,
                        epoch,
                        -1 if base_seq < 0 else base_seq + i,
                    )
                )
            if idempotent:
                self.states[p].update(
                    PRODUCER_ID,
                    epoch,
                    base_seq + batch.record_count - 1,
                    first,
                    len(log) - 1,
                    request.sent_ms,
                )
            request.broker[batch.id] = ("appended", first)


@dataclass
class Sender:
    """``Sender`` + ``NetworkClient`` for one node, in virtual milliseconds."""

    settings: ProducerSettings
    accumulator: RecordAccumulator
    latency_ms: int
    faults: dict[int, str]
    tm: TransactionManager | None = None
    broker: Broker = field(default_factory=Broker)
    in_flight: list[Request] = field(default_factory=list)  # oldest first
    requests: list[Request] = field(default_factory=list)
    in_flight_batches: dict[int, list[ProducerBatch]] = field(default_factory=dict)  # Sender.inFlightBatches
    ready_at_ms: int = 0  # the connection is usable from this time
    events: list[dict[str, Any]] = field(default_factory=list)
    unread_sends: list[Request] = field(default_factory=list)  # acks=0: completed at the next poll
    stalled: str | None = None  # the current connection's stall: "requests" or "responses"

    def log(
        self, now: int, kind: str, text: str, batch: ProducerBatch | None = None, request: int | None = None
    ) -> None:
        self.events.append(
            {
                "t_ms": now,
                "event": kind,
                "detail": text,
                "batch": None if batch is None else batch.id,
                "request": request,
            }
        )

    # ------------------------------------------------------------------ runOnce

    def run_once(self, now: int) -> int:
        """``Sender.runOnce``: resolve sequences, maybe bump the epoch, ``sendProducerData``, then
        ``client.poll``.  Returns the poll timeout ``sendProducerData`` asked for (0: run again at once)."""
        if self.tm is not None:
            self.tm.maybe_resolve_sequences()
            if self.tm.bump_epoch_if_needed(now):
                self.log(
                    now,
                    "epoch bump",
                    f"producer epoch -> {self.tm.epoch}; in-flight sequences renumbered from 0",
                )
        timeout = self.send_producer_data(now)
        self.poll(now)
        return timeout

    def node_ready(self, now: int) -> bool:
        """``NetworkClient.ready``: connected and ``canSendMore``."""
        return now >= self.ready_at_ms and len(self.in_flight) < self.settings.max_in_flight

    def send_producer_data(self, now: int) -> int:
        """``Sender.sendProducerData``: ready, drain, expire, send; returns the poll timeout: 0 while the node
        has sendable data, else the least of the next ready check, the node's poll delay (reconnect backoff;
        none while connected: an answer wakes the Sender) and the next batch expiry."""
        ready, next_check = self.accumulator.ready(now)
        not_ready: int | None = None
        if ready and not self.node_ready(now):
            ready = False
            not_ready = self.ready_at_ms - now if now < self.ready_at_ms else None
        batches = self.drain(now) if ready else []
        for b in batches:
            self.in_flight_batches.setdefault(b.partition, []).append(b)
            if self.settings.guarantee_message_order:
                self.accumulator.muted.add(b.partition)
        expired_in_flight, in_flight_expiry = self._expired_in_flight(now)
        expired_queued, queued_expiry = self.accumulator.expired_batches(now)
        for b in expired_queued + expired_in_flight:
            self.fail_batch(b, "TimeoutException (delivery.timeout.ms)", False, now)
            if self.tm is not None and b.retry:
                self.tm.mark_sequence_unresolved(b)
        waits = [t for t in (next_check, not_ready) if t is not None]
        waits += [t - now for t in (in_flight_expiry, queued_expiry) if t is not None]
        timeout = 0 if ready else max(min(waits, default=NO_TIMEOUT), 0)
        if batches:
            self._send(batches, now)
        return timeout

    def drain(self, now: int) -> list[ProducerBatch]:
        """``drainBatchesForOneNode``: one batch per partition, from the drain index, up to
        max.request.size."""
        acc, parts, size = self.accumulator, list(range(self.accumulator.partitions)), 0
        out: list[ProducerBatch] = []
        start = index = acc.drain_index % len(parts)
        while True:
            p = parts[index]
            acc.drain_index = index
            index = (index + 1) % len(parts)
            dq = acc.deques.get(p)
            if p not in acc.muted and dq and not acc.backing_off(dq[0], now):
                first = dq[0]
                if size + first.size > MAX_REQUEST_SIZE and out:
                    break
                if self.tm is not None and self.tm.should_stop_drain(first):
                    break
                dq.popleft()
                if self.tm is not None and not first.has_sequence:
                    self.tm.assign_sequence(first)
                first.closed = True
                size += first.size
                out.append(first)
            if index == start:
                break
        return out

    def _send(self, batches: list[ProducerBatch], now: int) -> None:
        """``sendProduceRequest``: the broker appends (or refuses) the request's batches as it is sent; the
        answer is read ``2 x latency_ms`` later, or at the next poll with acks=0."""
        number = len(self.requests) + 1
        fault = self.faults.get(number)
        if fault == "timeout_after_write":
            self.stalled = self.stalled or "responses"
        elif fault == "timeout_before_write":
            self.stalled = "requests"
        answered = None if self.stalled is not None or self.settings.acks == 0 else now + 2 * self.latency_ms
        request = Request(
            number,
            now,
            batches,
            fault,
            self.stalled != "requests",
            answered,
            attempt_of={b.id: b.attempts + 1 for b in batches},
            sequences={b.id: (b.producer_epoch, b.base_sequence) for b in batches},
        )
        self.requests.append(request)
        names = ", ".join(
            f"{b.label()}" + (f" seq {b.base_sequence}" if b.has_sequence else "") for b in batches
        )
        self.log(
            now,
            "send",
            f"request {number}: {names}" + (f" [fault: {fault}]" if fault else ""),
            request=number,
        )
        if request.reaches_broker:
            self.broker.handle(request, self.tm is not None)
            text = "; ".join(
                f"B{b}: {o}" + ("" if off is None else f" @ offset {off}")
                for b, (o, off) in request.broker.items()
            )
            self.log(now, "broker", f"request {number}: {text}", request=number)
        else:
            self.log(now, "stalled", f"request {number} will never reach the broker", request=number)
        if self.settings.acks == 0:
            self.unread_sends.append(request)
        else:
            self.in_flight.append(request)

    # ------------------------------------------------------------------ network

    def poll(self, now: int) -> None:
        """``NetworkClient.poll``: completed sends (acks=0), completed receives (in send order), then
        timed-out requests."""
        for request in self.unread_sends:
            request.client = "acks=0: complete on send"
            for b in request.batches:
                self.complete_batch(b, "NONE", None, now)
        self.unread_sends.clear()
        while (
            self.in_flight
            and self.in_flight[0].answered_ms is not None
            and self.in_flight[0].answered_ms <= now
        ):
            request = self.in_flight.pop(0)
            request.client = "response"
            for b in request.batches:
                outcome, offset = request.broker.get(b.id, ("NETWORK_EXCEPTION", None))
                error = "NONE" if outcome in ("appended", "duplicate") else outcome
                self.complete_batch(b, error, offset, now)
        timed_out = [r for r in self.in_flight if now - r.sent_ms > self.settings.request_timeout_ms]
        if timed_out:
            cancelled, self.in_flight = self.in_flight, []
            self.ready_at_ms, self.stalled = now + RECONNECT_BACKOFF_MS, None
            self.log(
                now,
                "disconnect",
                f"request {timed_out[0].number} timed out: connection closed, "
                f"{len(cancelled)} in-flight request(s) fail with REQUEST_TIMED_OUT",
            )
            for request in cancelled:
                request.client = "REQUEST_TIMED_OUT (disconnected)"
                for b in request.batches:
                    self.complete_batch(b, "REQUEST_TIMED_OUT", None, now)

    def next_answer_ms(self) -> int | None:
        """When the oldest unanswered request's answer is read, or sooner, when a request times out
        (``NetworkClient.handleTimedOutRequests``: more than request.timeout.ms after it was sent; the lab's
        own model, never reached in the vectors, where 2 x latency_ms < request.timeout.ms)."""
        if not self.in_flight:
            return None
        deadline = min(r.sent_ms for r in self.in_flight) + self.settings.request_timeout_ms + 1
        first = self.in_flight[0].answered_ms
        return deadline if first is None else min(first, deadline)

    def next_change_ms(self, now: int) -> int | None:
        """The first instant after ``now`` at which a pass could differ for time alone: a queue head's linger or
        backoff ends, a batch reaches ``delivery.timeout.ms``, an answer is due, a request times out, the node
        reconnects."""
        times = [t for t in (self.next_answer_ms(), self.ready_at_ms) if t is not None and t > now]
        acc = self.accumulator
        for p, dq in acc.deques.items():
            if not dq:
                continue
            head = dq[0]
            times.append(head.created_ms + self.settings.delivery_timeout_ms)
            if p not in acc.muted:
                off = acc.backing_off(head, now)
                wait = acc.linger_ms
                if off:
                    wait = backoff(acc.retry_backoff_ms, acc.retry_backoff_max_ms, head.attempts - 1)
                times.append(head.last_attempt_ms + wait)
        expiry = self.settings.delivery_timeout_ms
        times += [flights[0].created_ms + expiry for flights in self.in_flight_batches.values() if flights]
        later = [t for t in times if t > now]
        return min(later) if later else None

    def idle(self) -> bool:
        """Nothing left in the accumulator, in flight or unread."""
        return not self.accumulator.has_undrained() and not self.in_flight and not self.unread_sends

    # ------------------------------------------------------------------ completion

    def can_retry(self, batch: ProducerBatch, error: str, now: int) -> bool:
        """``Sender.canRetry``."""
        if batch.reached_delivery_timeout(self.settings.delivery_timeout_ms, now) or batch.is_done:
            return False
        if batch.attempts >= self.settings.retries:
            return False
        retriable = error in RETRIABLE
        return retriable if self.tm is None else self.tm.can_retry(error, batch, retriable)

    def complete_batch(self, batch: ProducerBatch, error: str, offset: int | None, now: int) -> None:
        """``Sender.completeBatch``: success, retry, or fail; then unmute with ``max.in.flight = 1``."""
        if error == "NONE":
            if self.tm is not None:
                self.tm.handle_completed_batch(batch, offset)
            if not batch.is_done:
                batch.final_state, batch.base_offset = "acked", offset
                self.log(
                    now,
                    "acked",
                    f"{batch.label()} acknowledged" + ("" if offset is None else f" at offset {offset}"),
                    batch,
                )
            self._remove_in_flight(batch)
        elif self.can_retry(batch, error, now):
            self.accumulator.reenqueue(batch, now, self.tm is not None)
            self._remove_in_flight(batch)
            self.log(
                now,
                "retry",
                f"{batch.label()}: {error}, re-enqueued (attempt {batch.attempts + 1} next)",
                batch,
            )
        else:
            self.fail_batch(batch, error, batch.attempts < self.settings.retries, now)
        if self.settings.guarantee_message_order:
            self.accumulator.muted.discard(batch.partition)

    def fail_batch(self, batch: ProducerBatch, error: str, adjust_sequences: bool, now: int) -> None:
        if batch.is_done:
            return
        batch.final_state, batch.error = "failed", error
        if self.tm is not None:
            self.tm.handle_failed_batch(batch, error, adjust_sequences)
        self._remove_in_flight(batch)
        self.log(now, "failed", f"{batch.label()} failed: {error}", batch)

    def _remove_in_flight(self, batch: ProducerBatch) -> None:
        flights = self.in_flight_batches.get(batch.partition, [])
        if batch in flights:
            flights.remove(batch)

    def _expired_in_flight(self, now: int) -> tuple[list[ProducerBatch], int | None]:
        """``getExpiredInflightBatches``: in order, stopping at the first not yet expired per partition, whose
        expiry is the next one (``maybeUpdateNextBatchExpiryTime``)."""
        out: list[ProducerBatch] = []
        next_expiry: int | None = None
        timeout = self.settings.delivery_timeout_ms
        for p in sorted(self.in_flight_batches):
            flights = self.in_flight_batches[p]
            while flights and flights[0].reached_delivery_timeout(timeout, now):
                out.append(flights.pop(0))
            if flights:
                expiry = flights[0].created_ms + timeout
                next_expiry = expiry if next_expiry is None else min(next_expiry, expiry)
        return out, next_expiry
