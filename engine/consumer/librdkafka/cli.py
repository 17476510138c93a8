"""``python -m engine assign`` with the optional ``"client"`` field: Java's assignors (default) or librdkafka's.

``"client": "java"`` (or no field) is the spec's ``assign`` unchanged (``engine.consumer.group.cli_assign``).
``"client": "librdkafka"`` replays the same scenario with librdkafka's range, roundrobin or
cooperative-sticky (``replay_librdkafka``: members in the listed order = JoinGroup order) and
answers in the same shape.  librdkafka has no eager ``sticky``: asking for it is a one-line error,
and so is a step where the real librdkafka client would crash (``LibrdkafkaFailure``).

>>> case = {"strategy": "range", "client": "librdkafka", "topics": {"t0": 3},
...         "members": [{"id": "m1", "topics": ["t0"], "instance_id": "z"}, {"id": "m2", "topics": ["t0"]},
...                     {"id": "m3", "topics": ["t0"], "instance_id": "a"}]}
>>> cli_assign(case)["steps"][0]["assignment"]
{'m1': ['t0-0'], 'm2': ['t0-1'], 'm3': ['t0-2']}
>>> cli_assign({**case, "client": "java"})["steps"][0]["assignment"]
{'m1': ['t0-1'], 'm2': ['t0-2'], 'm3': ['t0-0']}
"""

from __future__ import annotations

from typing import Any

from engine.cost import CLI_CEILING, admit, estimate_assign_command
from engine.errors import ScenarioError
from engine.release import follows
from engine.scenario import parse_client, parse_scenario


def librdkafka_strategy(data: dict[str, Any]) -> str:
    """The ``strategy`` field checked against librdkafka's assignors."""
    from engine.consumer.librdkafka.replay import STRATEGIES

    value = data.get("strategy")
    if not isinstance(value, str) or value not in STRATEGIES:
        shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
        raise ScenarioError(f"strategy: librdkafka offers {', '.join(STRATEGIES)}, got {shown}")
    return value


def cli_assign(payload: Any) -> dict[str, Any]:
    """One ``assign`` case in, ``{"steps": [...]}`` out, for the client the case names."""
    from engine.consumer import group

    if parse_client(payload) == "java":
        return group.cli_assign(payload)
    from engine.consumer.librdkafka.replay import replay_librdkafka

    strategy = librdkafka_strategy(payload)
    scenario = parse_scenario(payload)
    admit(estimate_assign_command(scenario, strategy, "librdkafka"), CLI_CEILING, "assign")
    steps = [group.step_to_json(s, strategy) for s in replay_librdkafka(scenario, strategy)]
    return {"follows": follows("assign-librdkafka"), "steps": steps}
