"""``python -m bench cost``'s pure parts: ``--only`` keeps every other model's constants and the run line, and
the share-assign cases' shapes read off their documents agree with the engine's own (``step_shapes``)."""

from __future__ import annotations

import datetime
import importlib.util
from pathlib import Path

import pytest

from bench import cost as bench_cost
from engine.coordinator.share_assignment import parse_share_case, step_shapes
from engine.cost import constants


@pytest.mark.parametrize("shape", bench_cost.SHARE_ASSIGN_FIT[:2] + [(2_000, 30, 10, True, 3, True)])
def test_share_case_shapes_from_the_document_match_the_parsed_steps(shape: tuple) -> None:
    doc = bench_cost.share_assign_doc(*shape)
    assert bench_cost._doc_shapes(doc) == step_shapes(parse_share_case(doc)[1])


def test_a_partial_fit_keeps_every_other_model_exactly_and_names_itself_in_the_run_line(tmp_path: Path) -> None:
    refit = {**constants.MODELS, "share_assign": {"seconds": {"partitions": 1.234e-06}, "bytes": {"1": 1000.0}}}
    run = bench_cost.merge_run(constants.RUN, "share", datetime.datetime(2030, 1, 2, 3, 4))
    path = tmp_path / "constants.py"
    bench_cost.write_constants(refit, run, path)
    spec = importlib.util.spec_from_file_location("written_constants", path)
    assert spec is not None and spec.loader is not None
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    assert written.MODELS["share_assign"] == refit["share_assign"]
    assert {k: v for k, v in written.MODELS.items() if k != "share_assign"} == {
        k: v for k, v in constants.MODELS.items() if k != "share_assign"}
    assert written.RUN.startswith(constants.RUN.split(" UTC")[0]) and "share* 2030-01-02 03:04)" in written.RUN
    again = bench_cost.merge_run(written.RUN, "share", datetime.datetime(2030, 1, 2, 5, 6))
    assert again.count("share* ") == 1 and "share* 2030-01-02 05:06" in again
