"""The streams model (``streams_assign``): its coefficients are ``engine/cost/constants.py``'s, fitted by ``python -m
bench cost --only streams`` like every other model, and its estimate holds within ``FACTOR`` of a measured run on
the shapes the old worst-case standby term was 16 to 50 times over (many standby replicas) and on the largest
group of the conformance cases (1,000 members x 5,000 tasks)."""

from __future__ import annotations

import json
import math
import time

import pytest

from bench.cost.streams import Shape, case_of, doc_shape
from engine.coordinator.streams.cli import cli_streams_assign
from engine.cost import computations, constants, streams, terms
from engine.cost.streams import StreamsAssignmentShape, estimate_streams_assignment

FACTOR = 3.0


def test_the_streams_estimate_evaluates_the_fitted_constants(monkeypatch: pytest.MonkeyPatch) -> None:
    fitted = constants.MODELS["streams_assign"]
    assert set(fitted["seconds"]) <= set(terms.TERMS["streams_assign"][0]) and fitted["seconds"]
    assert streams.MODELS is constants.MODELS  # no constants of its own:
    assert [n for n, v in vars(streams).items() if isinstance(v, dict) and not n.startswith("__")] == ["MODELS"]
    shape = StreamsAssignmentShape(members=40, processes=10, tasks=300, stateful_tasks=100, standby_replicas=2,
                                   previous_active=300, previous_standby=200)
    monkeypatch.setitem(constants.MODELS, "streams_assign",
                        {"seconds": {"1": 0.5, "placements": 1e-3}, "bytes": {"members": 1000.0}})
    estimate = estimate_streams_assignment(shape)
    assert estimate.seconds == pytest.approx(0.5 + 1e-3 * (300 + 100 * 2))
    assert estimate.peak_bytes == 40_000


def test_standby_polls_are_counted_as_run_not_at_worst() -> None:
    """200 processes, 100 stateful tasks x 150 replicas: about 333 polls a task measured (the worst case counted
    150²/2 = 11,250), the model's ``(P + 1) x ln((P + 1/2) / (P - R + 1/2))``, 277; with a replica more than the
    processes can hold, the failing one polls them all."""
    f = computations.streams_assignment_features(200, 200, 200, 100, 150)
    polls = f["heap_steps"] / math.log2(201) - 200  # log2(201) levels a poll, one poll per active task
    assert 270 * 100 <= polls <= 285 * 100
    full = computations.streams_assignment_features(5, 5, 10, 10, 9)  # 4 replicas a task placed, the 5th fails
    assert full["placements"] == 10 + 10 * 4
    assert full["heap_steps"] == pytest.approx((10 + 10 * (6 * math.log(5.5 / 1.5) + 5)) * math.log2(6))


@pytest.mark.parametrize("shape", [Shape(200, 1, 4, 50, 150), Shape(200, 1, 4, 50, 150, "member-leaves"),
                                   Shape(100, 10, 50, 100, 1), Shape(1_000, 1, 50, 100, 1, "member-leaves")],
                         ids=lambda s: s.label)
def test_many_standbys_and_1000_members_x_5000_tasks_are_estimated_within_3x(shape: Shape) -> None:
    case = case_of(shape)
    estimate = estimate_streams_assignment(doc_shape(case)).seconds
    text = json.dumps(case)
    runs = []
    for _ in range(3):
        start = time.perf_counter()
        json.dumps(cli_streams_assign(json.loads(text)))
        runs.append(time.perf_counter() - start)
    assert estimate / FACTOR <= min(runs) <= estimate * FACTOR, (min(runs), estimate)
