"""Seed-a has its "article says / Kafka does" callout, every callout's "Kafka does" is what the
engine computes, and a callout sits next to (right above) the grid it explains, not below the fold."""

from __future__ import annotations

import pytest

from engine.comparison import CLIENT, outcomes
from engine.consumer.explain import CALLOUTS
from engine.presets import build_preset
from helpers import open_page


def in_order(node, out: list) -> list:
    """The page's elements in the order they are drawn."""
    kids = getattr(node, "children", None)
    if isinstance(kids, dict) and kids:
        for k in sorted(kids):
            in_order(kids[k], out)
    else:
        out.append(node)
    return out


@pytest.mark.parametrize("callout", CALLOUTS, ids=lambda c: f"{c.preset}-{c.strategy}-{c.step}")
def test_kafka_does_is_what_the_engine_computes(callout) -> None:
    got = outcomes(build_preset(callout.preset), CLIENT[callout.strategy])[callout.step].assignment
    for part in callout.kafka.split(";"):
        member, tps = part.split(":")
        assert [str(tp) for tp in got[member.strip()]] == [t.strip() for t in tps.split(",")]


def test_seed_a_callout_sits_above_the_grids() -> None:
    at = open_page("1_Assignments.py", "seed-a")
    texts = [w.value for w in at.warning]
    named = "《如何确定Kafka的分区数、key和consumer线程数》 (out of date since Kafka 0.9) says"  # by title, verdict
    assert any(named in t and "C0: t0-0, t0-1, t0-2, t0-3" in t for t in texts), texts
    assert not any("min()'s" in t for t in texts)  # min is commutative: no "swapped arguments"
    kinds = [n.type for n in in_order(at.main, [])]
    first_chart = kinds.index("plotly_chart")
    callout = next(i for i, n in enumerate(in_order(at.main, [])) if n.type == "warning"
                   and named in str(n.value))
    assert callout < first_chart, "the callout is drawn below the grid it explains"
