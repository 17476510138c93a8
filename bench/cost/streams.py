"""The streams groups' cases of ``python -m bench cost`` (model ``streams_assign``): ``python -m engine
streams-assign``'s work on one case, the JSON text decoded, the case read and assigned and the answer encoded, on
groups of every size, fresh and chained (``member-leaves``: Kafka's answer minus one member), with
every member listing every stateful task as a previous standby (``standbys``), and with many standby replicas
(up to 150 on 200 processes).  ``python -m bench streams_assign`` times the same shapes against the estimate.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

from bench.cost.cases import Case, Prepared, if_fitted
from engine.coordinator.streams.case import parse_case
from engine.coordinator.streams.sticky_task_assignor import assign
from engine.cost.streams import StreamsAssignmentShape, estimate_streams_assignment


@dataclass(frozen=True)
class Shape:
    """A case: processes x threads, subtopologies x partitions (half stateful), standby replicas, how the previous
    assignment is made (``fresh``: none; ``member-leaves``: Kafka's answer minus one member; ``standbys``: every
    member lists every stateful task as a previous standby)."""

    processes: int
    threads: int
    subtopologies: int
    partitions: int
    standby: int
    previous: str = "fresh"

    @property
    def label(self) -> str:
        return (f"{self.processes * self.threads:,} members / {self.processes:,} proc, "
                f"{self.subtopologies * self.partitions:,} tasks, S={self.standby}, {self.previous}")


STREAMS_FIT = [
    Shape(2, 2, 2, 4, 0), Shape(5, 2, 5, 20, 1), Shape(10, 3, 5, 40, 1), Shape(20, 5, 10, 50, 2),
    Shape(20, 5, 10, 50, 2, "member-leaves"), Shape(50, 4, 20, 100, 1), Shape(50, 4, 20, 100, 1, "member-leaves"),
    Shape(100, 10, 50, 100, 0), Shape(400, 5, 40, 100, 1), Shape(2_000, 1, 20, 100, 0),
    Shape(500, 1, 20, 100, 1, "member-leaves"), Shape(30, 5, 5, 40, 2, "standbys"),
    Shape(100, 2, 10, 50, 1, "standbys"), Shape(4, 25, 2, 100, 3, "standbys"), Shape(20, 2, 10, 20, 10, "standbys"),
    Shape(30, 1, 6, 20, 20, "standbys"),
    Shape(10, 4, 4, 100, 9), Shape(20, 1, 4, 20, 30), Shape(60, 1, 10, 50, 40), Shape(100, 1, 10, 50, 60),
    Shape(150, 1, 4, 50, 100), Shape(30, 2, 4, 50, 20, "member-leaves"), Shape(50, 2, 10, 50, 30, "member-leaves"),
]
STREAMS_HELD = [
    Shape(100, 10, 50, 100, 1), Shape(1_000, 1, 50, 100, 1, "member-leaves"), Shape(300, 3, 30, 100, 2),
    Shape(200, 1, 4, 50, 150), Shape(200, 1, 4, 50, 150, "member-leaves"), Shape(120, 1, 6, 50, 80, "member-leaves"),
    Shape(6, 50, 4, 100, 5, "standbys"), Shape(40, 1, 10, 20, 30, "standbys"),
]
STREAMS_FULL_EXTRA = [Shape(1_000, 5, 50, 100, 2), Shape(400, 1, 10, 50, 150, "member-leaves")]  # held out, full run


def case_of(shape: Shape, seed: int = 7) -> dict[str, Any]:
    """The ``streams-assign`` document of ``shape``."""
    rng = random.Random(seed)
    subs: list[dict[str, Any]] = [{"id": str(i), "partitions": shape.partitions, "stateful": i % 2 == 0}
                                  for i in range(shape.subtopologies)]
    members = [{"member_id": f"{rng.getrandbits(64):016x}-m{p}-{t}", "process_id": f"process-{p:05d}"}
               for p in range(shape.processes) for t in range(shape.threads)]
    case: dict[str, Any] = {"configs": {"num.standby.replicas": str(shape.standby)}, "subtopologies": subs,
                            "members": members}
    if shape.previous == "member-leaves":
        parsed = parse_case(case)
        answer = assign(parsed.spec, parsed.topology).to_json()["assignment"]
        case["members"] = [{**m, **answer[m["member_id"]]} for m in members[1:]]
    elif shape.previous == "standbys":
        stateful = {s["id"]: list(range(s["partitions"])) for s in subs if s["stateful"]}
        case["members"] = [{**m, "standby": stateful} for m in members]
    return case


def doc_shape(case: dict[str, Any]) -> StreamsAssignmentShape:
    """``parse_case(case).shape()`` read off the document (parsing it here would leave freed memory the measured
    run reuses, hiding its peak); ``test_bench_cost`` checks both agree."""
    members, subs = case["members"], case["subtopologies"]

    def listed(kind: str) -> int:
        return sum(len(ps) for m in members for ps in m.get(kind, {}).values())

    return StreamsAssignmentShape(
        members=len(members), processes=len({m["process_id"] for m in members}),
        tasks=sum(s["partitions"] for s in subs), stateful_tasks=sum(s["partitions"] for s in subs if s["stateful"]),
        standby_replicas=int(case["configs"].get("num.standby.replicas", "0")), previous_active=listed("active"),
        previous_standby=listed("standby"))


def command_work(text: str) -> str:
    """The command's work on one case but its admission (which needs the model being fitted): the text decoded,
    the case read, assigned, and the answer encoded."""
    case = parse_case(json.loads(text))
    return json.dumps(assign(case.spec, case.topology).to_json())


def _streams_case(shape: Shape, held_out: bool) -> Case:
    def prepare() -> Prepared:
        case = case_of(shape)
        text = json.dumps(case)
        shaped = doc_shape(case)
        return ((lambda: command_work(text)), shaped.features(),
                if_fitted("streams_assign", lambda: estimate_streams_assignment(shaped)))

    return Case("streams_assign", shape.label, prepare, held_out)


def streams_cases(quick: bool) -> list[Case]:
    """Every shape of ``STREAMS_FIT`` fitted, ``STREAMS_HELD`` (and, in a full run, ``STREAMS_FULL_EXTRA``)
    held out."""
    held = STREAMS_HELD + ([] if quick else STREAMS_FULL_EXTRA)
    return [*(_streams_case(s, False) for s in STREAMS_FIT), *(_streams_case(s, True) for s in held)]
