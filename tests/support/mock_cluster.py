"""librdkafka's in-process mock Kafka cluster, driven through ctypes on the librdkafka that the
``confluent-kafka`` wheel bundles: real brokers' wire protocol on loopback, no network, no JVM.

    with MockCluster(brokers=3, racks={1: "r1", 2: "r2"}) as mc:
        mc.create_topic("t0", partitions=6, rf=2)
        Consumer({"bootstrap.servers": mc.bootstrap, "group.id": "g", ...})

``mock_cluster`` is a pytest fixture (import it into a test module) and ``mock_cluster_factory``
builds fixtures with other settings.

What the mock does NOT do (librdkafka 2.16, ``src/rdkafka_mock*.c``):
* no CreateTopics, CreatePartitions, ListGroups or DescribeGroups handlers: create topics with
  ``create_topic`` (``rd_kafka_mock_topic_create``); a topic's partition count can never change
  (the mock API has no call for it), so "partitions are added" steps cannot be reproduced;
* replicas: partition p of a topic with replication factor rf lives on rf consecutive brokers
  (in broker-id order, wrapping) starting at index ``(p * rf) % brokers``; its racks are those
  brokers' racks (``set_rack``).

Classic consumer groups on the mock (``rdkafka_mock_cgrp.c``) behave like a broker with these
differences, which the oracle relies on:
* member ids are ``"%p"`` of the member struct (e.g. ``0x7f3a5c00d140``): heap addresses, so
  their byte order (which the assignors sort by) is effectively random per run; read the real
  ids back (``Consumer.memberid()`` or the leader's debug log);
* the JoinGroup member list is in first-join order (a TAILQ: a member is appended when it first
  joins, stays in place when it rejoins, and is removed when it leaves or times out);
* the leader is the first member, unless it is static: then the static member with the lowest
  ``group.instance.id`` (a real broker picks the first joiner);
* the first rebalance of an empty group waits ``group.initial.rebalance.delay.ms`` (3000 ms by
  default, ``set_initial_rebalance_delay``); any later rebalance started from a stable group
  waits ``session.timeout.ms - 1000`` ms of the member that joined last, even when every member
  has rejoined (a real broker completes as soon as all members rejoin) - so keep
  ``session.timeout.ms`` small in tests; only a rebalance after a sync timeout finishes in 100 ms;
* a generation completes as soon as every member has an assignment, i.e. when the LEADER's
  SyncGroup arrives (it carries all of them): a follower whose SyncGroup comes later (slow CPU)
  gets INVALID_REQUEST and rejoins, an extra round a real broker would not run (``sync_check``);
* members not rejoining in time stay in the member list sent to the leader with their old
  metadata; a member is expired when it has been silent for ``session.timeout.ms`` (checked
  every second); static members do not send LeaveGroup on close, so they leave only by expiry;
* generation ids start at 1 and increment before each election: the first stable generation is 2.
"""

from __future__ import annotations

import ctypes
import glob
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

RD_KAFKA_PRODUCER = 0
_ERRSTR = 512


class MockClusterError(RuntimeError):
    """The mock cluster could not be created or refused a command."""


def librdkafka_path() -> Path:
    """The librdkafka shared library bundled with ``confluent_kafka`` (the one its ``cimpl`` uses)."""
    import confluent_kafka

    package = Path(confluent_kafka.__file__).resolve().parent
    patterns = [
        package.parent / "confluent_kafka.libs" / "librdkafka*.so*",  # auditwheel (manylinux)
        package / ".libs" / "librdkafka*.so*",
        package / ".dylibs" / "librdkafka*.dylib",  # delocate (macOS)
        package / "librdkafka*.so*",
        package.parent / "confluent_kafka.libs" / "librdkafka*.dll",
    ]
    for pattern in patterns:
        found = sorted(glob.glob(str(pattern)))
        if found:
            return Path(found[0])
    override = os.environ.get("KPL_LIBRDKAFKA")
    if override:
        return Path(override)
    raise MockClusterError(f"no librdkafka shared library next to {package} (set KPL_LIBRDKAFKA)")


_LIB: ctypes.CDLL | None = None


def load_librdkafka() -> ctypes.CDLL:
    """The library with argument and result types declared for the calls used here (loaded once)."""
    global _LIB
    if _LIB is not None:
        return _LIB
    lib = ctypes.CDLL(str(librdkafka_path()))
    vp, cp, i32 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int32
    signatures: dict[str, tuple[Any, list[Any]]] = {
        "rd_kafka_version_str": (cp, []),
        "rd_kafka_conf_new": (vp, []),
        "rd_kafka_conf_set": (ctypes.c_int, [vp, cp, cp, cp, ctypes.c_size_t]),
        "rd_kafka_conf_destroy": (None, [vp]),
        "rd_kafka_new": (vp, [ctypes.c_int, vp, cp, ctypes.c_size_t]),
        "rd_kafka_destroy": (None, [vp]),
        "rd_kafka_mock_cluster_new": (vp, [vp, ctypes.c_int]),
        "rd_kafka_mock_cluster_destroy": (None, [vp]),
        "rd_kafka_mock_cluster_bootstraps": (cp, [vp]),
        "rd_kafka_mock_topic_create": (ctypes.c_int, [vp, cp, ctypes.c_int, ctypes.c_int]),
        "rd_kafka_mock_broker_set_rack": (ctypes.c_int, [vp, i32, cp]),
        "rd_kafka_mock_coordinator_set": (ctypes.c_int, [vp, cp, cp, i32]),
        "rd_kafka_mock_group_initial_rebalance_delay_ms": (None, [vp, i32]),
    }
    for name, (restype, argtypes) in signatures.items():
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = restype, argtypes
    if hasattr(lib, "rd_kafka_mock_set_controller_id"):  # not in every librdkafka version
        lib.rd_kafka_mock_set_controller_id.restype = ctypes.c_int
        lib.rd_kafka_mock_set_controller_id.argtypes = [vp, i32]
    _LIB = lib
    return lib


def librdkafka_version() -> str:
    """``rd_kafka_version_str()`` of the bundled library, e.g. ``"2.16.0"``."""
    return str(load_librdkafka().rd_kafka_version_str().decode())


class MockCluster:
    """A running mock cluster: ``bootstrap`` servers on 127.0.0.1, brokers with ids 1..brokers."""

    def __init__(self, brokers: int = 3, racks: dict[int, str] | None = None,
                 initial_rebalance_delay_ms: int | None = None) -> None:
        if brokers < 1:
            raise MockClusterError(f"brokers: must be >= 1, got {brokers}")
        self._lib = load_librdkafka()
        self.brokers = brokers
        self.topics: dict[str, int] = {}
        self.racks: dict[int, str] = {}
        self._rk: int | None = None
        self._mc: int | None = None
        self._open(brokers)
        for broker, rack in (racks or {}).items():
            self.set_rack(broker, rack)
        if initial_rebalance_delay_ms is not None:
            self.set_initial_rebalance_delay(initial_rebalance_delay_ms)

    def _open(self, brokers: int) -> None:
        lib = self._lib
        conf = lib.rd_kafka_conf_new()
        err = ctypes.create_string_buffer(_ERRSTR)
        for key, value in (("log_level", "3"), ("client.id", "kpl-mock-cluster")):
            if lib.rd_kafka_conf_set(conf, key.encode(), value.encode(), err, _ERRSTR) != 0:
                lib.rd_kafka_conf_destroy(conf)
                raise MockClusterError(f"conf {key}: {err.value.decode()}")
        rk = lib.rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, _ERRSTR)  # takes ownership of conf
        if not rk:
            raise MockClusterError(f"rd_kafka_new: {err.value.decode()}")
        self._rk = rk
        mc = lib.rd_kafka_mock_cluster_new(rk, brokers)
        if not mc:
            lib.rd_kafka_destroy(rk)
            self._rk = None
            raise MockClusterError("rd_kafka_mock_cluster_new failed")
        self._mc = mc
        self.bootstrap: str = lib.rd_kafka_mock_cluster_bootstraps(mc).decode()

    def _handle(self) -> int:
        if self._mc is None:
            raise MockClusterError("mock cluster is closed")
        return self._mc

    def _check(self, what: str, code: int) -> None:
        if code:
            raise MockClusterError(f"{what}: librdkafka error code {code}")

    def create_topic(self, name: str, partitions: int, rf: int = 1) -> None:
        """``rd_kafka_mock_topic_create`` (replication factor capped at the broker count)."""
        self._check(f"create_topic {name!r}",
                    self._lib.rd_kafka_mock_topic_create(self._handle(), name.encode(), partitions, rf))
        self.topics[name] = partitions

    def set_rack(self, broker: int, rack: str) -> None:
        """``rd_kafka_mock_broker_set_rack`` for broker id ``broker`` (1..brokers)."""
        self._check(f"set_rack {broker}",
                    self._lib.rd_kafka_mock_broker_set_rack(self._handle(), broker, rack.encode()))
        self.racks[broker] = rack

    def set_controller(self, broker: int) -> None:
        """``rd_kafka_mock_set_controller_id`` (librdkafka >= 2.16)."""
        if not hasattr(self._lib, "rd_kafka_mock_set_controller_id"):
            raise MockClusterError("this librdkafka has no rd_kafka_mock_set_controller_id")
        code = self._lib.rd_kafka_mock_set_controller_id(self._handle(), broker)
        self._check(f"set_controller {broker}", code)

    def set_coordinator(self, group: str, broker: int) -> None:
        """Pin a group's coordinator (``rd_kafka_mock_coordinator_set``)."""
        self._check(f"set_coordinator {group!r}",
                    self._lib.rd_kafka_mock_coordinator_set(self._handle(), b"group", group.encode(), broker))

    def set_initial_rebalance_delay(self, delay_ms: int) -> None:
        """``group.initial.rebalance.delay.ms`` of new groups (3000 by default)."""
        self._lib.rd_kafka_mock_group_initial_rebalance_delay_ms(self._handle(), delay_ms)

    def replica_brokers(self, partition: int, rf: int) -> list[int]:
        """The mock's replica placement: rf consecutive broker ids from ``(partition * rf) % brokers``."""
        first = (partition * rf) % self.brokers
        return [1 + (first + i) % self.brokers for i in range(min(rf, self.brokers))]

    def close(self) -> None:
        """Destroy the mock cluster, then its handle (idempotent)."""
        if self._mc is not None:
            self._lib.rd_kafka_mock_cluster_destroy(self._mc)
            self._mc = None
        if self._rk is not None:
            self._lib.rd_kafka_destroy(self._rk)
            self._rk = None

    def __enter__(self) -> MockCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # pragma: no cover - best effort
        try:
            self.close()
        except Exception:
            pass


def mock_cluster_factory(**kwargs: Any) -> Callable[..., Iterator[MockCluster]]:
    """A pytest fixture yielding a ``MockCluster(**kwargs)``, closed afterwards."""

    @pytest.fixture
    def _fixture() -> Iterator[MockCluster]:
        with MockCluster(**kwargs) as cluster:
            yield cluster

    return _fixture


mock_cluster = mock_cluster_factory(brokers=3)
