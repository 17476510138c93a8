"""Kafka-scale groups pass through ``assign`` within the CLI ceiling, and their answers hold.

(a) 100 topics x 500 partitions, 500 members each on a random half of the topics, sticky and
cooperative-sticky; (b) 100 topics x 2,000 partitions, 2,000 members on every topic, all four strategies.
Both as two steps: the group, then one member leaves.  Each case runs in-process in a few seconds on the
2-core machine (``python -m bench cost --scale-only`` times them through ``python -m engine assign``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from engine.consumer.group import cli_assign
from helpers import kafka_scale_shape as shape

pytestmark = pytest.mark.slow  # about 10 s in all (80 s on the earlier, loaded machine): make test, not make check


def check_steps(doc: dict[str, Any], answer: dict[str, Any]) -> None:
    for step, result in zip(doc["steps"], answer["steps"]):
        subscribed = {m["id"]: set(m["topics"]) for m in step["members"]}
        owned = Counter(tp for tps in result["assignment"].values() for tp in tps)
        expected = {f"{t}-{p}" for t in set().union(*subscribed.values()) for p in range(step["topics"][t])}
        assert set(owned) == expected and set(owned.values()) == {1}  # every partition, once
        for member, tps in result["assignment"].items():
            assert all(tp.rsplit("-", 1)[0] in subscribed[member] for tp in tps)


@pytest.mark.parametrize("strategy", ["sticky", "cooperative-sticky"])
def test_50000_partitions_500_members_on_differing_topics(strategy: str) -> None:
    doc = shape(100, 500, 500, 0.5)
    answer = cli_assign({**doc, "strategy": strategy})
    check_steps(doc, answer)
    assert "consumer0" not in answer["steps"][1]["assignment"]


@pytest.mark.parametrize("strategy", ["range", "roundrobin", "sticky", "cooperative-sticky"])
def test_200000_partitions_2000_members_one_leaves(strategy: str) -> None:
    doc = shape(100, 2_000, 2_000, 1.0)
    answer = cli_assign({**doc, "strategy": strategy})
    check_steps(doc, answer)
    counts = [len(tps) for tps in answer["steps"][0]["assignment"].values()]
    assert (min(counts), max(counts)) == (100, 100)  # 200,000 partitions over 2,000 members
    left = len(answer["steps"][0]["assignment"]["consumer0"])
    if strategy in ("sticky", "cooperative-sticky"):  # only the leaver's partitions move
        assert answer["steps"][1]["moved"] == left and answer["steps"][1]["moved_from_remaining"] == 0
