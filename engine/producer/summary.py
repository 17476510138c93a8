"""The numbers the Keys page tabulates, as rows: skew per partitioner, the hottest keys, null-key runs.

Worked example (asserted in tests/engine/producer/test_producer_summary.py): the keys ``21`` (twice) and ``foobar`` over
50 partitions with the Java partitioner put 2 records on partition 40 (Kafka's ``UtilsTest`` key)::

    >>> hottest_rows(pa.array(["21", "foobar", "21"]), 50, top=1)
    [{'key': '21', 'records': 2, 'Java partition': '40'}]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pyarrow as pa

from engine.producer.keysample import hottest_keys, skew
from engine.producer.null_keys import STRATEGIES, ProducerRun
from engine.producer.partitioners import UNHASHED, client_partitions


def skew_rows(placed: Mapping[str, np.ndarray], counts: Mapping[str, np.ndarray]) -> list[dict[str, Any]]:
    """Per partitioner: max/mean, CV, empty and hottest partitions, records the hash leaves unplaced."""
    rows = []
    for name, hist in counts.items():
        s = skew(hist)
        rows.append({"partitioner": name, "max / mean": round(s.max_over_mean, 3), "CV": round(s.cv, 3),
                     "empty partitions": s.empty_partitions,
                     "hottest partitions": ", ".join(f"{p} ({c:,})" for p, c in s.hottest[:3]),
                     "records left to sticky/random": int((placed[name] == UNHASHED).sum())})
    return rows


def hottest_rows(keys: pa.Array, partitions: int, top: int = 10) -> list[dict[str, Any]]:
    """The ``top`` most frequent keys, their record counts and the Java producer's partition."""
    hot = hottest_keys(keys, top)
    java = client_partitions(pa.array([k for k, _ in hot], pa.string()), partitions, "java")
    return [{"key": "<null>" if k is None else k, "records": c,
             "Java partition": str(int(p)) if p >= 0 else "sticky"}
            for (k, c), p in zip(hot, java, strict=True)]


def null_key_rows(runs: Mapping[str, ProducerRun]) -> list[dict[str, Any]]:
    """Per null-key strategy: the slow broker's share, skew, batches."""
    return [{"strategy": STRATEGIES[name], "broker 0 (slow) share": f"{100 * run.broker_share()[0]:.1f}%",
             "max / mean per partition": round(run.skew(), 2), "batches sent": int(run.batches_sent.sum()),
             "mean batch (bytes)": round(run.mean_batch_bytes())} for name, run in runs.items()]
