"""At the dashboard's doors: the cost model decides before any work (inline, worker or one line), the
server's cache is bounded by bytes, and the Load page refuses bad upload names with a message."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from engine.cost import DASHBOARD_CEILING, INLINE_SECONDS, Estimate
from engine.scenario import parse_scenario
from helpers import REPO
from ui.frame.state import encode_scenario
from ui.runtime import memo
from ui.runtime.memo import ByteLRU, deep_size
from ui.runtime.offload import mode


def huge_link() -> str:
    """The issue's link: 20 topics x 100,000 partitions, 200 members, 10 steps (a member leaves each step)."""
    topics = {f"t{i}": 100_000 for i in range(20)}
    members = [{"id": f"c{i:03d}", "topics": list(topics)} for i in range(200)]
    steps = [{"topics": topics, "members": members[: 200 - k]} for k in range(10)]
    return encode_scenario(parse_scenario({"steps": steps}))


def test_the_mode_follows_the_estimate() -> None:
    assert mode(Estimate(INLINE_SECONDS / 2, 1 << 20, "small")) == "inline"
    assert mode(Estimate(INLINE_SECONDS * 2, 1 << 20, "medium")) == "worker"
    assert mode(Estimate(DASHBOARD_CEILING.seconds * 2, 1 << 20, "slow")) == "refused"
    assert mode(Estimate(INLINE_SECONDS * 2, DASHBOARD_CEILING.peak_bytes * 2, "big")) == "refused"


def test_the_cache_is_bounded_by_bytes_least_recently_used_out_first() -> None:
    cache = ByteLRU(1000)
    for i in range(5):
        cache.put(i, str(i), 240)
        cache.get(0)  # 0 stays in use
    assert cache.total == 960 and sorted(cache.keys()) == [0, 2, 3, 4]  # 1 was the least recently used
    cache.put("giant", "x", 400)  # over a quarter of the budget: given to the caller, not kept
    assert "giant" not in cache.keys()


def test_a_value_is_measured_by_what_it_holds() -> None:
    import numpy as np

    small, large = list(range(100)), list(range(100_000))
    assert 0.5 < deep_size(large) / (1000 * deep_size(small)) < 2  # sampled, then scaled
    assert deep_size({"a": np.zeros(1_000_000)}) >= 8_000_000


def test_a_large_dict_is_measured_as_the_allocator_sees_it() -> None:
    """Ten steps of a 100-member assignment (dicts -> lists of 40 tuples) against tracemalloc's count of what they
    allocated: a dict's sampled (key, value) pairs are made during the walk, and a freed pair's address reused by
    the next dict's pair once hid it (a 6,000-partition group measured at 5.7 MiB held 9.4 MiB)."""
    import gc
    import tracemalloc

    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        value = [{f"member-{m}": [("orders", m * 40 + p) for p in range(40)] for m in range(100)}
                 for _ in range(10)]
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0.8 < deep_size(value) / held < 1.5, (deep_size(value), held)


def test_memo_keeps_one_value_per_key_for_every_caller_and_copies_on_request() -> None:
    calls: list[int] = []

    @memo.memo(copy=True)
    def table(n: int) -> list[int]:
        calls.append(n)
        return list(range(n))

    first = table(3)
    first.append(99)  # a caller modifying its copy does not change the cached value
    assert table(3) == [0, 1, 2] and calls == [3]
    table.clear()
    assert table(3) == [0, 1, 2] and calls == [3, 3]


def test_a_link_asking_for_too_much_is_one_line_and_no_work() -> None:
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=120)
    at.query_params["s"] = huge_link()
    start = time.perf_counter()
    at.run()
    took = time.perf_counter() - start
    assert not at.exception
    lines = [e.value for e in at.error]
    assert len(lines) == 1 and "over the dashboard's ceiling" in lines[0], lines
    assert "2,000,000 partitions x 200 members" in lines[0]  # what drives the estimate
    assert took < 60  # nothing was computed (the same scenario's assignments take many minutes)


def test_the_refusal_reads_in_chinese() -> None:
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=120)
    at.query_params["s"] = huge_link()
    at.query_params["lang"] = "zh"
    at.run()
    assert not at.exception
    assert "超过仪表盘的上限" in at.error[0].value and "个分区" in at.error[0].value


@pytest.mark.parametrize("name", ["keys\x00.csv", "keys." + "c" * 300, "keys.exe", "no-suffix"])
def test_a_bad_upload_name_is_a_message_not_a_crash(name: str) -> None:
    from ui.load.spark_load import upload_source

    source = upload_source(b"key\na\n", name)
    assert source.path is None and source.error is not None
    assert ".csv, .parquet, .json, .jsonl" in source.error  # (in the language of the last page run)
    assert "\x00" not in source.error and len(source.error) < 200


def test_a_good_upload_name_is_saved_under_its_content_hash() -> None:
    from ui.load.spark_load import upload_source

    source = upload_source(b"key\na\n", "../../Keys.CSV")
    assert source.error is None and source.path is not None
    assert source.path.suffix == ".csv" and source.path.parent.name == "uploads"


def test_a_worker_job_is_shared_kept_and_cancellable() -> None:
    import time as clock

    from ui.runtime.memo import STORE
    from ui.runtime.offload import POOL, Cancelled

    estimate = Estimate(5.0, 1 << 20, "test")
    job = POOL.submit(("test", "divmod"), divmod, (7, 2), estimate)
    again = POOL.submit(("test", "divmod"), divmod, (7, 2), estimate)  # another session asking the same
    assert again is job or job.done.is_set()
    job.done.wait(120)
    assert job.value() == (3, 1) and STORE.get(("test", "divmod")) == (True, (3, 1))  # kept for every session
    slow = POOL.submit(("test", "sleep"), clock.sleep, (60,), estimate)
    clock.sleep(1)
    POOL.cancel(slow)
    with pytest.raises(Cancelled):
        slow.value()
    assert slow.process is None or not slow.process.is_alive()  # the worker was terminated


def test_work_over_the_inline_limit_runs_in_a_worker_and_the_page_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.frame.state import ScenarioRef
    from ui.runtime import offload
    from ui.scenario.cached import comparison_estimate

    members = [{"id": f"c{i:03d}", "topics": ["a", "b"] if i % 2 else ["a"]} for i in range(150)]
    scenario = parse_scenario({"topics": {"a": 8_000, "b": 2_000}, "members": members})
    # the inline limit lowered under this group's estimate (~0.1 s), so the test runs seconds of work, not a
    # minute: a group estimated over the real limit (1 s) costs its librdkafka comparison tens of seconds
    monkeypatch.setattr(offload, "INLINE_SECONDS", comparison_estimate(ScenarioRef.of(scenario), "java").seconds / 2)
    assert mode(comparison_estimate(ScenarioRef.of(scenario), "java")) == "worker"
    submitted: list[object] = []
    real = offload.POOL.submit
    monkeypatch.setattr(offload.POOL, "submit", lambda key, *rest: submitted.append(key) or real(key, *rest))
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=600)
    at.query_params["s"] = encode_scenario(scenario)
    at.run()
    assert not at.exception and not at.error
    # the four client strategies and the two KIP-848 assignors at once, off the script thread (and the other
    # client's strategies the page's teaching notes compare with, each its own worker job)
    assert len(submitted) >= 6 and all(key[0] == "outcomes" for key in submitted)  # type: ignore[index]
    assert at.table  # the balance table drawn from the worker's results


def test_a_worker_refusal_is_kept_and_a_cancel_is_not() -> None:
    import time as clock

    from ui.runtime.memo import STORE
    from ui.runtime.offload import POOL, Cancelled, Failure, run

    estimate = Estimate(5.0, 1 << 20, "test")
    with pytest.raises(ZeroDivisionError):
        run(("test", "divide"), divmod, (1, 0), estimate)
    hit, value = STORE.get(("test", "divide"))
    assert hit and isinstance(value, Failure)  # a rerun reports it without starting the work again
    slow = POOL.submit(("test", "sleep-again"), clock.sleep, (60,), estimate)
    clock.sleep(1)
    POOL.cancel(slow)
    with pytest.raises(Cancelled):
        slow.value()
    clock.sleep(1)
    assert not STORE.get(("test", "sleep-again"))[0]  # the next visit may start it again


def test_an_answer_too_large_for_the_cache_is_computed_once_and_refused_in_one_line() -> None:
    from engine.errors import LimitError
    from ui.runtime.memo import STORE
    from ui.runtime.offload import run

    estimate = Estimate(5.0, 1 << 20, "test")
    size = STORE.largest // 8 + 1  # list items of 8 bytes: the list alone holds more than the cache keeps
    with pytest.raises(LimitError, match="more than the .* MiB the dashboard keeps of one answer"):
        run(("test", "huge"), list, (range(size),), estimate)
    assert STORE.get(("test", "huge"))[0]
    with pytest.raises(LimitError):  # a rerun reads the kept refusal: no second computation
        run(("test", "huge"), lambda *_: pytest.fail("computed again"), (), estimate)


def test_a_share_group_link_asking_for_too_much_is_one_line_and_no_work() -> None:
    """A share group's own assignment (simple) is part of what Assignments estimates before any work."""
    topics = {f"t{i}": 100_000 for i in range(20)}
    members = [{"id": f"c{i:03d}", "topics": list(topics)} for i in range(200)]
    scenario = parse_scenario({"steps": [{"topics": topics, "members": members[: 200 - k]} for k in range(10)],
                               "group_type": "share"})
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=120)
    at.query_params["s"] = encode_scenario(scenario)
    at.run()
    assert not at.exception
    lines = [e.value for e in at.error]
    assert len(lines) == 1 and "over the dashboard's ceiling" in lines[0], lines
    assert "2,000,000 partitions x 200 members (7 assignors" in lines[0]  # the six and the share group's simple


def test_the_load_page_refuses_a_huge_input_by_its_estimate_before_spark(tmp_path: Path) -> None:
    """The Load page's estimate through the door (``ui.frame.door.admit``): an input whose run would pass the
    dashboard's ceiling is one line (here a sparse 500 GB Parquet file: its size alone, nothing read), in Chinese
    too; a small one passes."""
    from engine.errors import LimitError
    from engine.spark.config import build_config
    from ui.frame.door import admit
    from ui.load.spark_load import load_estimate
    from ui.text.i18n import translate

    huge = tmp_path / "huge.parquet"
    with open(huge, "wb") as handle:
        handle.truncate(500 * 10**9)
    with pytest.raises(LimitError) as refused:
        admit(load_estimate(build_config(str(huge), "6,12,24", consumers="2,3")))
    line = str(refused.value)
    assert "over the dashboard's ceiling" in line and line.endswith(
        "(500,000,000,000 bytes of parquet, partition counts 6, 12, 24)")
    chinese = translate(line, "zh")
    assert chinese.startswith("估计需要 ") and "超过仪表盘的上限" in chinese, chinese
    assert "字节的 parquet 输入，分区数 6, 12, 24" in chinese
    small = tmp_path / "small.parquet"
    small.write_bytes(b"x" * 100_000)
    admit(load_estimate(build_config(str(small), "12", consumers="2,3")))


def test_the_partition_log_and_timing_wheel_pages_pass_their_work_through_the_door(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The log (up to 3,000 batches x 1,000 records and cleanings: a minute), the wheel's cost measurement
    (10^6 tasks: about a minute), the placement and the Keys page's hashing (10^6 keys x 200 counts: seconds)
    go through ``ui.runtime.offload.run`` with their estimate; a refusal is one line."""
    import ui.keys.cached
    import ui.partition.cached
    import ui.timer.cached
    from engine.errors import LimitError

    asked: list[tuple[object, Estimate]] = []

    def refuse(key: object, fn: object, args: object, estimate: Estimate, what: str = "") -> object:
        asked.append((key, estimate))
        raise LimitError(f"estimated {estimate.seconds:.0f} s ({estimate.drivers})")

    for module in (ui.keys.cached, ui.partition.cached, ui.timer.cached):
        monkeypatch.setattr(module, "run", refuse)
    for page, kind in (("10_Partition_Log.py", "log"), ("5_Timing_Wheel.py", "wheel_run"),
                       ("8_Replicas.py", "replicas"), ("3_Keys.py", "placements")):
        at = AppTest.from_file(str(REPO / "pages" / page), default_timeout=120)
        at.run()
        assert not at.exception, page
        assert [key for key, _ in asked if key[0] == kind], page  # type: ignore[index]
        assert len(at.error) == 1 and "estimated" in at.error[0].value, page
        asked.clear()


def test_the_largest_log_and_wheel_runs_leave_the_script_thread_the_remap_curve_follows_its_estimate() -> None:
    import json

    from engine.cost import estimate_wheel_costs
    from engine.cost.computations import wheel_levels
    from engine.server.timer.cost import COST_MAX_DELAY_MS
    from ui.partition.cached import log_estimate
    from ui.partition.log_inputs import PAGE_MAX_BATCHES

    largest = {"config": {}, "workload": {"batches": PAGE_MAX_BATCHES, "records_per_batch": 1_000}}
    assert mode(log_estimate(json.dumps(largest))) != "inline"
    assert mode(log_estimate(json.dumps({"workload": {"batches": 200, "records_per_batch": 10}}))) == "inline"
    assert mode(estimate_wheel_costs(1_000_000, wheel_levels(1, 20, COST_MAX_DELAY_MS))) != "inline"
    assert mode(estimate_wheel_costs(1_000, wheel_levels(1, 20, COST_MAX_DELAY_MS))) == "inline"
    from engine.cost import estimate_remap

    # the Keys page's largest sample and curve: about 0.4 s measured (remap_curve, 2026-11-27; the 21 s once
    # estimated came from a fit under load), so it runs inline; ten times the keys would go to a worker
    assert mode(estimate_remap(1_000_000, 201)) == "inline"
    assert mode(estimate_remap(10_000_000, 201)) == "worker"


def chain_link_scenario(members: int, steps: int) -> Any:
    """A share group whose partitions change at every step: each step a new 5-partition topic beside the
    previous one (older ones deleted), one member leaving and one joining; members keep the partitions of the
    topics nobody subscribes to any more, so the share assignment holds about members x steps² partitions in all
    while the link stays small (``bench.cost.share_groups.share_chain_doc``)."""
    from bench.cost.share_groups import share_chain_doc

    return parse_scenario({**share_chain_doc(members, steps, 1, 5, "move"), "group_type": "share"})


def test_a_share_link_of_chained_steps_over_the_inline_limit_goes_to_a_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """150 members x 60 steps (about 2 s of share assignment, estimated so): the page's door sends it to a worker
    with the six assignors, never onto the script thread."""
    from ui.frame.state import ScenarioRef
    from ui.runtime import offload
    from ui.scenario.cached import comparison_estimate

    scenario = chain_link_scenario(150, 60)
    assert mode(comparison_estimate(ScenarioRef.of(scenario), "java")) == "worker"
    submitted: list[object] = []
    real = offload.POOL.submit
    monkeypatch.setattr(offload.POOL, "submit", lambda key, *rest: submitted.append(key) or real(key, *rest))
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=300)
    at.query_params["s"] = encode_scenario(scenario)
    at.run()
    assert not at.exception and not at.error
    assert [key for key in submitted if key[0] == "share"]  # type: ignore[index]


def compact_chain_scenario(members: int, steps: int, partitions: int) -> Any:
    """A short link asking for a long chain: each step one new topic of ``partitions`` partitions (the older ones
    deleted), every member on it and one also on a missing topic (the heterogeneous path), a member leaving and one
    joining; every member keeps every partition it was given, so the steps hold about partitions x steps² / 2."""
    steps_out = []
    ids = list(range(members))
    for k in range(steps):
        ids = ids[1:] + [members + k - 1] if k else ids
        steps_out.append({"topics": {f"s{k}": partitions},
                          "members": [{"id": f"m{i}", "topics": [f"s{k}"] + (["x"] if j == 0 else [])}
                                      for j, i in enumerate(ids)]})
    return parse_scenario({"steps": steps_out, "group_type": "share"})


def test_a_short_share_link_of_chained_steps_over_the_ceiling_is_one_line_and_no_work() -> None:
    """100 members x 200 steps of 1,500 partitions: an 82,000-character link, about 12,000,000 partitions held
    (estimated at 79 s; the same shape with 1,000 partitions measured 59.7 s and 1.2 GiB), refused before any work."""
    scenario = compact_chain_scenario(100, 200, 1_500)
    link = encode_scenario(scenario)
    assert len(link) < 100_000
    at = AppTest.from_file(str(REPO / "pages" / "1_Assignments.py"), default_timeout=120)
    at.query_params["s"] = link
    start = time.perf_counter()
    at.run()
    assert not at.exception
    lines = [e.value for e in at.error]
    assert len(lines) == 1 and "over the dashboard's ceiling" in lines[0], lines
    assert "x 100 members (7 assignors, differing subscriptions), 200 steps" in lines[0]  # the share group's simple too
    assert time.perf_counter() - start < 60
