"""Pure-Python parts of the load pipeline (no Spark): assignments, summary shape, recommendation, charts."""

from __future__ import annotations

import pandas as pd
import pytest

from engine.charts import load as charts
from engine.consumer.group import replay
from engine.errors import EngineError
from engine.scenario import parse_scenario
from engine.spark.report import (
    complete_partitions,
    consumer_assignments,
    group_scenario,
    member_ids,
    recommend,
    summary_document,
)


def test_recommend_docstring_example() -> None:
    rows = [
        {"strategy": "range", "consumers": 2, "num_partitions": 12, "member": "C0", "peak_messages_per_s": 90.0},
        {"strategy": "range", "consumers": 2, "num_partitions": 12, "member": "C1", "peak_messages_per_s": 60.0},
        {"strategy": "range", "consumers": 3, "num_partitions": 12, "member": "C0", "peak_messages_per_s": 50.0},
    ]
    best = recommend(rows, target=80.0)
    assert best is not None
    assert (best.consumers, best.num_partitions, best.max_load, best.meets_target) == (3, 12, 50.0, True)
    closest = recommend(rows, target=10.0)
    assert closest is not None and (closest.consumers, closest.meets_target) == (3, False)
    with pytest.raises(EngineError, match="target: must be > 0, got 0"):
        recommend(rows, 0)


def test_member_ids_sort_naturally() -> None:
    assert member_ids(3) == ["C0", "C1", "C2"]
    ids = member_ids(12)
    assert ids[:2] == ["C00", "C01"] and sorted(ids) == ids


def test_assignment_rows_come_from_the_engine_replay() -> None:
    rows, skipped = consumer_assignments("orders", (5,), (2, 7), ("range", "roundrobin"))
    assert skipped == {}
    for strategy in ("range", "roundrobin"):
        for consumers in (2, 7):
            expected = replay(parse_scenario(group_scenario("orders", 5, consumers)), strategy).steps[0].assignment
            mine = [r for r in rows if r[0] == strategy and r[1] == consumers]
            for member in member_ids(consumers):
                owned = sorted(r[4] for r in mine if r[3] == member)
                assert owned == (sorted(tp.partition for tp in expected[member]) or [-1])
    # range with 2 consumers over 5 partitions: C0 gets 0,1,2 and C1 gets 3,4 (Kafka's RangeAssignor)
    assert [r[4] for r in rows if r[:4] == ("range", 2, 5, "C0")] == [0, 1, 2]


def test_summary_has_every_partition_with_zeros() -> None:
    per = complete_partitions([{"num_partitions": 3, "partition": 1, "keyed_messages": 4, "keyed_bytes": 40}],
                              (3,), ("keyed_messages", "keyed_bytes"))
    assert summary_document(5, 1, per) == {
        "rows": 5, "null_keys": 1,
        "partitions": {"3": [{"partition": 0, "messages": 0, "bytes": 0}, {"partition": 1, "messages": 4, "bytes": 40},
                             {"partition": 2, "messages": 0, "bytes": 0}]},
    }


def test_charts_docstring_example_and_escaping() -> None:
    rows = pd.DataFrame({"num_partitions": [2, 2], "partition": [0, 1], "keyed_messages": [5, 1],
                         "null_key_messages": [1, 0], "messages": [6, 1]})
    fig = charts.partition_load_bars(rows, 2)
    assert [[int(v) for v in t.y] for t in fig.data] == [[5, 1], [1, 0]]
    hot = pd.DataFrame({"num_partitions": [2], "partition": [1], "key_text": ["<b>x</b>"], "key_hex": ["00"],
                        "messages": [3]})
    assert list(charts.hot_keys_bars(hot, 2).data[0].y) == ["&lt;b&gt;x&lt;/b&gt; → p1"]
    consumers = pd.DataFrame({"strategy": ["range", "roundrobin"], "consumers": [1, 1], "num_partitions": [2, 2],
                              "member": ["C0", "C0"], "partitions": [2, 2], "messages": [7, 7]})
    fig = charts.consumer_load_bars(consumers, 2, 1, "messages")
    assert [t.name for t in fig.data] == ["range", "roundrobin"]
