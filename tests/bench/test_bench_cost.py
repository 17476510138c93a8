"""``python -m bench cost``'s pure parts: ``--only`` keeps every other model's constants and the run line, the
share-assign cases' shapes read off their documents agree with the engine's own (``step_shapes``), and so do the
streams cases' (``parse_case(...).shape()``)."""

from __future__ import annotations

import datetime
import importlib.util
from pathlib import Path

import pytest

from bench.cost import share_groups, streams, write
from engine.coordinator.share_assignment import parse_share_case, step_shapes
from engine.coordinator.streams.case import parse_case
from engine.cost import constants, terms


@pytest.mark.parametrize("shape", share_groups.SHARE_ASSIGN_FIT[:2] + [(2_000, 30, 10, True, 3, True)])
def test_share_case_shapes_from_the_document_match_the_parsed_steps(shape: tuple) -> None:
    doc = share_groups.share_assign_doc(*shape)
    assert share_groups.doc_shapes(doc) == step_shapes(parse_share_case(doc)[1])


@pytest.mark.parametrize("shape", [streams.Shape(5, 2, 5, 20, 1), streams.Shape(20, 5, 10, 50, 2, "member-leaves"),
                                   streams.Shape(4, 5, 2, 10, 3, "standbys")], ids=lambda s: s.label)
def test_streams_case_shapes_from_the_document_match_the_parsed_case(shape: streams.Shape) -> None:
    case = streams.case_of(shape)
    assert streams.doc_shape(case) == parse_case(case).shape()


def test_streams_cases_fit_their_own_model_and_hold_out_the_large_and_standby_heavy_shapes() -> None:
    quick, full = streams.streams_cases(quick=True), streams.streams_cases(quick=False)
    assert {c.model for c in full} == {"streams_assign"} and "streams_assign" in terms.TERMS
    held = [c.label for c in quick if c.held_out]
    assert any("S=150, fresh" in label for label in held) and any("S=150, member-leaves" in label for label in held)
    assert any(label.startswith("1,000 members") and "5,000 tasks" in label for label in held)
    assert len(full) == len(quick) + len(streams.STREAMS_FULL_EXTRA)


def test_a_partial_fit_keeps_every_other_model_exactly_and_names_itself_in_the_run_line(tmp_path: Path) -> None:
    refit = {**constants.MODELS, "share_assign": {"seconds": {"partitions": 1.234e-06}, "bytes": {"1": 1000.0}}}
    run = write.merge_run(constants.RUN, "share", datetime.datetime(2030, 1, 2, 3, 4))
    path = tmp_path / "constants.py"
    write.write_constants(refit, run, path)
    spec = importlib.util.spec_from_file_location("written_constants", path)
    assert spec is not None and spec.loader is not None
    written = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(written)
    assert written.MODELS["share_assign"] == refit["share_assign"]
    assert {k: v for k, v in written.MODELS.items() if k != "share_assign"} == {
        k: v for k, v in constants.MODELS.items() if k != "share_assign"}
    assert written.RUN.startswith(constants.RUN.split(" UTC")[0]) and "share* 2030-01-02 03:04)" in written.RUN
    again = write.merge_run(written.RUN, "share", datetime.datetime(2030, 1, 2, 5, 6))
    assert again.count("share* ") == 1 and "share* 2030-01-02 05:06" in again
