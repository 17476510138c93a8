"""AppTest of pages/1_Assignments.py: the metrics shown equal the engine's and the vectors'."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from streamlit.testing.v1 import AppTest

from engine.charts.assignment import is_aggregated
from engine.consumer.explain import config_line
from engine.consumer.group import replay
from engine.consumer.metrics import balance_metrics
from engine.consumer.strategies import STRATEGY_NAMES as STRATEGIES
from engine.coordinator.assignors import SERVER_ASSIGNOR_NAMES as SERVER_ASSIGNORS
from engine.coordinator.target_assignment import server_assign
from engine.presets import PRESETS, build_preset
from helpers import load_vectors, open_page


def page(preset: str | None = None) -> AppTest:
    return open_page("1_Assignments.py", preset)


def rendered(first_run: Callable[..., AppTest], preset: str) -> AppTest:
    """The page after its first run, shared by the tests that only read it (conftest's ``first_run``)."""
    return first_run("1_Assignments.py", preset)


def metrics_table(at: AppTest):
    """The engine's table, drawn static (``st.table``: a few rows; a share group's own tables come first on its
    page)."""
    return next(t.value for t in at.table if "strategy" in t.value.columns).set_index("strategy")


CONSUMER_OR_SHARE = [k for k in PRESETS if build_preset(k).group_type != "streams"]  # streams: test_page_streams.py


@pytest.mark.parametrize("key", CONSUMER_OR_SHARE)
def test_every_preset_shows_the_engine_metrics(key: str, first_run: Callable[..., AppTest]) -> None:
    at = rendered(first_run, key)
    table = metrics_table(at)
    scenario = build_preset(key)
    for s in STRATEGIES:
        m = balance_metrics(replay(scenario, s).steps[0].assignment, scenario.first, scenario.weights)
        assert table.loc[s, "min partitions"] == m.min_partitions
        assert table.loc[s, "max partitions"] == m.max_partitions
        assert table.loc[s, "idle consumers"] == len(m.idle_members)
    for a in SERVER_ASSIGNORS:
        target = server_assign(scenario, a).steps[0].assignment
        m = balance_metrics(target, scenario.first, scenario.weights)
        row = table.loc[f"{a} (KIP-848)"]
        assert (row["group.protocol"], row["min partitions"], row["max partitions"]) == (
            "consumer", m.min_partitions, m.max_partitions)
    # one tab runs at a time: the four client grids side by side for a small group, one strategy for a big one
    small = not is_aggregated(scenario.first.topics, scenario.first.member_ids)
    share = 2 if scenario.group_type == "share" else 0  # a share group's grid and members per partition
    assert len(at.get("plotly_chart")) == (2 * len(STRATEGIES) if small else 2) + share


def test_seed_a_matches_the_vectors(first_run: Callable[..., AppTest]) -> None:
    case = next(c for c in load_vectors("assign.json")["cases"] if c["name"] == "seed-a-range")
    counts = sorted(len(v) for v in case["expected"][0]["assignment"].values())
    table = metrics_table(rendered(first_run, "seed-a"))
    shown = (table.loc["range", "min partitions"], table.loc["range", "max partitions"])
    assert shown == (counts[0], counts[-1]) == (3, 4)
    assert table.loc["range", "spread"] == 1


def test_more_consumers_than_partitions_shows_idle_consumers(first_run: Callable[..., AppTest]) -> None:
    table = metrics_table(rendered(first_run, "more-consumers"))
    assert (table["idle consumers"] == 2).all()


def test_rack_preset_shows_cross_rack_share_and_weights_show_load(first_run: Callable[..., AppTest]) -> None:
    table = metrics_table(rendered(first_run, "three-az"))
    assert (table["cross-rack share"] != "-").all()
    table = metrics_table(rendered(first_run, "order-service"))
    assert (table["max load / mean"] != "-").all()


def test_seed_d_step_1_shows_the_article_callout_and_moved_counts() -> None:
    at = page("seed-d")
    at.selectbox(key="assign.step").set_value(1).run()
    case = next(c for c in load_vectors("assign.json")["cases"] if c["name"] == "seed-d-sticky")
    assert metrics_table(at).loc["sticky", "moved (this step)"] == case["expected"][1]["moved"]
    texts = [w.value for w in at.warning]
    named = "《深入理解 Kafka》、《深入客户端（Explore Client）》 (out of date since Kafka 2.8) says"
    assert any(named in t and "t0-0, t3-0, t1-1, t0-1" in t for t in texts)


def test_config_line_and_downloads() -> None:
    at = page("seed-b-3p")
    at.session_state["assign.config_view"] = True  # the config section, a lazy expander
    at.run()
    at.selectbox(key="assign.config_strategy").set_value("cooperative-sticky").run()
    assert at.code[0].value == config_line("cooperative-sticky")
    assert "CooperativeStickyAssignor" in at.code[0].value
    assert len(at.get("download_button")) == 4  # CSV, JSON, the HTML handout, the config line


def test_downloads_are_built_on_click_from_the_cache_even_after_it_dropped_the_results(monkeypatch) -> None:
    """A download button keeps the scenario's key, not the results (a closed session then holds none): on a click
    Streamlit runs the callable on another thread, outside any script run, and it reads (or recomputes) them."""
    import concurrent.futures
    import csv
    import io
    import json

    from streamlit.runtime.media_file_manager import MediaFileManager

    from engine.consumer.assignment import assignment_to_json
    from ui.runtime import memo

    registered: dict[str, Callable[[], object]] = {}
    real = MediaFileManager.add_deferred

    def add_deferred(self: MediaFileManager, fn: Callable[[], object], *args: object, **kwargs: object) -> str:
        registered[str(kwargs.get("file_name"))] = fn
        return real(self, fn, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(MediaFileManager, "add_deferred", add_deferred)
    page("seed-b-3p")
    memo.clear()  # evicted since the page ran
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        made = {name: pool.submit(fn).result() for name, fn in registered.items()}
    files = {name: data.decode("utf-8-sig") if isinstance(data, bytes) else str(data).lstrip("\ufeff")
             for name, data in made.items()}
    scenario = build_preset("seed-b-3p")
    expected = {f"{s}": assignment_to_json(replay(scenario, s).steps[0].assignment) for s in STRATEGIES}
    rows = list(csv.DictReader(io.StringIO(files["assignments.csv"])))
    labels = {r["strategy"] for r in rows}
    assert len(rows) == len(labels) * sum(scenario.first.topics.values()) and len(labels) == 6
    by_label = json.loads(files["assignments.json"])
    assert [by_label[label] for label in by_label if label in expected] == list(expected.values())
    assert files["assignments-handout.html"].startswith("<!doctype html>")


def test_seed_d_server_assignors_equal_server_assign_at_every_step() -> None:
    at = page("seed-d")
    scenario = build_preset("seed-d")
    assert any("group.protocol=consumer" in h.value for h in at.subheader)
    assert any("ignore client.rack" in c.value and "roundrobin → uniform" in c.value for c in at.caption)
    for step in range(len(scenario.steps)):
        if step:
            at.selectbox(key="assign.step").set_value(step).run()
            assert not at.exception, at.exception
        table = metrics_table(at)
        for a in SERVER_ASSIGNORS:
            result = server_assign(scenario, a).steps[step]
            counts = [len(v) for v in result.assignment.values()]
            row = table.loc[f"{a} (KIP-848)"]
            assert row["moved (this step)"] == result.moved
            assert (row["min partitions"], row["max partitions"]) == (min(counts), max(counts))
            assert row["spread"] == max(counts) - min(counts)


def test_real_member_ids_get_short_labels_with_the_full_id_on_hover() -> None:
    """Real member ids (client.id-UUID, 60 characters) wreck the grid's and the bars' axes: the
    charts label consumers by client.id, the full id stays the category (hover) and an option shows it."""
    import json

    from engine.consumer.member_ids import short_labels
    from engine.scenario import parse_scenario
    from ui.frame.state import encode_scenario

    ids = ["consumer-orders-service-1-87751d4c-a850-4e2c-84dc-da6a797d76de",
           "consumer-orders-service-2-61b339ff-2481-44e5-998b-88dbaa99e079",
           "consumer-orders-service-3-7b87a9e2-5fef-4911-bf22-a27b02c7bff2"]
    scenario = parse_scenario({"steps": [{"topics": {"orders": 6}, "members": [{"id": m, "topics": ["orders"]}
                                                                                for m in ids]}]})
    at = page()
    at.query_params["s"] = encode_scenario(scenario)
    at.run()
    assert not at.exception, at.exception
    assert at.radio(key="assign.labels").value == "short"

    def axes() -> list[tuple[list[str], list[str]]]:
        found = []
        for chart in at.get("plotly_chart"):
            layout = json.loads(chart.proto.spec)["layout"]
            for axis in (layout.get("yaxis", {}), layout.get("xaxis", {})):
                if axis.get("ticktext") and axis.get("tickvals") and axis["tickvals"][0] in ids:
                    found.append((axis["tickvals"], axis["ticktext"]))
        return found

    shown = axes()
    assert shown and all(vals == ids and text == [short_labels(ids)[m] for m in ids] for vals, text in shown)
    assert shown[0][1] == ["consumer-orders-service-1", "consumer-orders-service-2", "consumer-orders-service-3"]
    at.radio(key="assign.labels").set_value("full").run()
    assert not axes()  # the full ids, as before


def test_the_migration_caption_does_not_claim_kafka_maps_strategies() -> None:
    """Kafka maps no client strategy to a server assignor; the caption names the closest
    group.remote.assignor to choose, from the strategy registry."""
    from engine.consumer.strategies import strategies

    captions = [c.value for c in page().caption]
    line = next(c for c in captions if "group.remote.assignor to choose" in c)
    assert "Kafka maps nothing itself" in line and "Client strategy → server assignor" not in line
    assert all(f"{s.name} → {s.server_assignor}" in line for s in strategies())
