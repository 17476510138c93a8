"""SharePartition against ../shared/vectors/share_deliver.json (Kafka's own class, run), in process.

Each step (result, expired locks, state) is compared exactly, as ../shared/tools/conformance.py does.
"""

from __future__ import annotations

import pytest

from engine.share.cli import cli_share_deliver
from helpers import load_vectors


@pytest.fixture(scope="module")
def cases() -> list[dict]:
    return load_vectors("share_deliver.json")["cases"]


def _inputs(case: dict) -> dict:
    return {k: v for k, v in case.items() if k not in ("expected", "note", "name")}


def test_every_case_matches_kafka_exactly(cases: list[dict]) -> None:
    failures = []
    for case in cases:
        steps = cli_share_deliver(_inputs(case))["steps"]
        if steps != case["expected"]:
            first = next((i for i, (a, b) in enumerate(zip(steps, case["expected"])) if a != b), len(steps))
            failures.append(f"{case['name']} step {first}")
    assert len(cases) == 120
    assert not failures, f"{len(failures)} cases differ, first: {failures[:5]}"


def test_teaching_cases_cover_the_behaviours_a_naive_model_misses(cases: list[dict]) -> None:
    """teach-11: max_records rounded up to a whole log batch; teach-08: the in-flight limit caps what one fetch
    acquires; teach-16: a leave skips another member's offsets inside a per-offset batch and releases the
    leaving member's later offsets."""
    by_name = {c["name"][:8]: c for c in cases}
    eleven = cli_share_deliver(_inputs(by_name["teach-11"]))["steps"]
    fetch = next(s["result"] for s in eleven if s["result"].get("acquired"))
    case_max = next(e["max_records"] for e in by_name["teach-11"]["events"] if e["op"] == "fetch")
    assert sum(a["last"] - a["first"] + 1 for a in fetch["acquired"]) > case_max
    eight = by_name["teach-08"]
    first = cli_share_deliver(_inputs(eight))["steps"][0]["result"]
    taken = sum(a["last"] - a["first"] + 1 for a in first["acquired"])
    assert taken == eight["settings"]["group.share.partition.max.record.locks"]
    sixteen = by_name["teach-16"]
    steps = cli_share_deliver(_inputs(sixteen))["steps"]
    leave = next(i for i, e in enumerate(sixteen["events"]) if e["op"] == "leave")
    leaver = sixteen["events"][leave]["member"]
    runs = [r for b in steps[leave]["state"]["in_flight"] for r in b.get("offsets", [b])]
    assert not [r for r in runs if r["state"] == "ACQUIRED" and r["member"] == leaver]
    assert [r for r in runs if r["state"] == "ACQUIRED"], "another member's offsets stay ACQUIRED"
    assert [r for r in runs if r["state"] == "AVAILABLE" and r["first"] > runs[0]["first"]]
