"""The browser benchmark's pure parts, without a browser: generated groups and their share links, script runs
read from websocket frames, /proc usage, percentiles, the tables and the verdicts on the targets."""

from __future__ import annotations

import base64
import doctest
import os
import subprocess
import sys

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

import bench.browser_groups as groups
from bench.browser import (
    IDLE_TARGET_S,
    LOAD_TARGET,
    SEQUENTIAL_GROWTH_LIMIT_MIB,
    Check,
    LoadRow,
    ScriptRuns,
    Sequential,
    Target,
    Usage,
    Visit,
    descendants,
    format_table,
    load_checks,
    page_checks,
    page_paths,
    page_table,
    percentile,
    sequential_check,
    short,
    summary,
    usage,
)
from engine.scenario import dumps_scenario
from ui.frame.state import decode_scenario


def test_groups_docstring_example() -> None:
    result = doctest.testmod(groups)
    assert result.attempted >= 4 and result.failed == 0


def test_generated_group_has_the_asked_sizes_and_round_trips_through_the_share_link() -> None:
    spec = groups.parse_group("200x20000x100")
    scenario = groups.group_scenario(spec)
    step = scenario.first
    assert (len(step.members), step.total_partitions, len(step.topics)) == (200, 20_000, 100)
    assert all(set(m.topics) == set(step.topics) for m in step.members)
    code = spec.query().removeprefix("s=")
    assert dumps_scenario(decode_scenario(code)) == dumps_scenario(scenario)


def test_default_topics_and_uneven_split() -> None:
    spec = groups.parse_group("3x1001")
    assert spec.topics == 3  # ceil(1001 / 500)
    sizes = groups.topic_sizes(1001, 3)
    assert sum(sizes) == 1001 and max(sizes) - min(sizes) <= 1
    assert list(groups.group_scenario(spec).first.topics.values()) == sizes


@pytest.mark.parametrize("text", ["abc", "0x100", "10x", "1x2x3x4", "5x3x9", "-5x10"])
def test_bad_group_is_one_line_naming_it(text: str) -> None:
    with pytest.raises(ValueError, match=text.replace("-", r"\-")):
        groups.parse_group(text)


def test_group_past_the_engine_limits_is_refused() -> None:
    with pytest.raises(ValueError, match="partitions"):
        groups.group_scenario(groups.parse_group("2x200000x1"))  # 200,000 partitions in one topic


def _frame(kind: str) -> bytes:
    msg = ForwardMsg()
    if kind == "new_session":
        msg.new_session.SetInParent()
    elif kind == "finished":
        msg.script_finished = ForwardMsg.FINISHED_SUCCESSFULLY
    elif kind == "compile_error":
        msg.script_finished = ForwardMsg.FINISHED_WITH_COMPILE_ERROR
    else:
        msg.delta.new_element.markdown.body = "x" * 100
    return msg.SerializeToString()


def test_script_runs_from_frames() -> None:
    runs = ScriptRuns()
    runs.on_request({"type": "Script", "timestamp": 0.1})
    runs.on_request({"type": "Document", "timestamp": 0.4})
    frames = [(1.0, "new_session"), (1.2, "delta"), (1.5, "finished"),
              (2.0, "new_session"), (2.3, "new_session"), (2.4, "finished")]  # run 2 stopped for a rerun
    for t, kind in frames:
        data = base64.b64encode(_frame(kind)).decode("ascii")
        runs.feed_cdp({"timestamp": t, "response": {"opcode": 2, "payloadData": data}})
    runs.feed(2.5, b"\xff\xff not a ForwardMsg")
    assert runs.durations == pytest.approx([0.5, 0.3, 0.1])
    assert runs.server_s == pytest.approx(0.9)
    assert runs.load_s == pytest.approx(0.6)
    assert runs.bytes == sum(len(_frame(k)) for _, k in frames) + len(b"\xff\xff not a ForwardMsg")
    assert not runs.compile_error
    runs.feed(3.0, _frame("compile_error"))
    assert runs.compile_error


def test_no_script_run_is_no_server_time() -> None:
    runs = ScriptRuns()
    runs.feed_cdp({"timestamp": 1.0, "response": {"opcode": 1, "payloadData": "hello"}})
    assert (runs.server_s, runs.load_s, runs.bytes) == (None, None, 5)


def test_usage_counts_the_process_and_its_children() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        assert child.pid in descendants(os.getpid())
        mine, tree_total = usage(child.pid), usage(os.getpid())
        assert mine.rss_mib > 0 and tree_total.rss_mib > mine.rss_mib and tree_total.cpu_s > 0
    finally:
        child.terminate()
        child.wait(timeout=10)


def test_percentile_is_nearest_rank() -> None:
    values = [float(x) for x in range(20, 0, -1)]
    assert (percentile(values, 50), percentile(values, 95), percentile(values, 100)) == (10.0, 19.0, 20.0)
    assert percentile([3.0], 95) == 3.0 and percentile([], 95) is None


def test_table_aligns_text_left_and_figures_right() -> None:
    table = format_table(["name", "s"], [["a", "1.50"], ["longer", "12.00"]]).splitlines()
    assert table == ["name        s", "------  -----", "a        1.50", "longer  12.00"]
    assert short("x" * 100, 10) == "xxxxxxx..." and short(None) == ""


def test_page_table_splits_idle_into_server_load_and_render() -> None:
    v = Visit("large", "Assignments", server_s=0.25, load_s=0.5, idle_s=1.75, bytes=2**20, runs=1, charts=3)
    row = page_table([v]).splitlines()[2].split()
    assert row[:3] == ["large", "/", "Assignments"]
    assert (v.browser_s, v.render_s) == (1.5, 1.0)
    assert row[3:] == ["-", "0.25", "1", "1.50", "0.50", "1.00", "-", "1.75", "1.00", "3"]


def _visit(group: str, page: str, idle: float | None, mib: float = 0.1, error: str | None = None) -> Visit:
    return Visit(group, page, server_s=0.1, idle_s=idle, bytes=int(mib * 2**20), error=error)


def test_page_verdicts_against_the_issue_targets() -> None:
    checks = page_checks([
        _visit("large", "Assignments", IDLE_TARGET_S["large"] - 0.1),
        _visit("large", "Rebalance", None, error="not idle within 120 s"),
        _visit("defaults", "Keys", IDLE_TARGET_S["large"] + 0.1),
        _visit("200x20000", "Assignments", 3.0, mib=2.0),
    ])
    verdicts = {c.target: c.met for c in checks}
    assert verdicts["Assignments idle <= 2 s (large)"] is True
    assert verdicts["Rebalance idle <= 2 s (large)"] is False
    assert verdicts["Keys idle <= 2 s (defaults)"] is False
    assert verdicts["Assignments idle <= 4 s (200x20000)"] is True
    assert verdicts["Assignments payload < 1.5 MB (200x20000)"] is False
    assert verdicts["every scenario page idle <= 30 s (1000x100000)"] is None  # not run: not judged


def test_load_verdict_is_server_p95_and_errors() -> None:
    group, n, limit = LOAD_TARGET
    target = Target("Assignments", group, "preset=large")
    fast = [Visit(group, "Assignments", server_s=limit / 2, idle_s=1.0) for _ in range(n)]
    slow = fast[:-2] + [Visit(group, "Assignments", server_s=limit * 2, idle_s=3.0) for _ in range(2)]
    failed = fast[:-1] + [Visit(group, "Assignments", error="not idle within 120 s")]
    use = Usage(1.0, 100.0)
    met = [load_checks([LoadRow(target, v, use, use)])[0].met for v in (fast, slow, failed)]
    assert met == [True, False, False]
    assert load_checks([])[0].met is None


def test_sequential_verdict_needs_the_full_count() -> None:
    flat = Sequential([(i, 300.0 + (5 if i else 0)) for i in range(0, 101, 10)])
    growing = Sequential([(i, 300.0 + i) for i in range(0, 101, 10)])
    assert flat.growth_second_half() == 0 and sequential_check(flat).met is True
    assert growing.growth_second_half() == 50 > SEQUENTIAL_GROWTH_LIMIT_MIB
    assert sequential_check(growing).met is False
    assert sequential_check(Sequential([(0, 300.0), (5, 301.0), (10, 302.0)])).met is None
    assert sequential_check(None).met is None


def test_summary_names_the_missed_targets() -> None:
    line = summary([Check("a", "1 s", True), Check("b", "9 s", False), Check("c", "not run", None)])
    assert line == "targets: 1 of 2 judged met, 1 not judged; missed: b"


def test_pages_are_url_paths_and_assignments_reads_the_scenario() -> None:
    paths = page_paths()
    assert paths and all(not name[0].isdigit() for name in paths)
    assert paths["Assignments"] is True
