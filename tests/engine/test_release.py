"""The release registry: one place names the Kafka each model follows, and README shows it as generated."""

from __future__ import annotations

import re

import pytest

from engine.errors import EngineError
from engine.release import CURRENT, DEFAULTS, MODELS, defaults_named, markdown_table, model
from helpers import REPO


def test_readme_shows_the_registry_as_generated() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- releases:start -->\n(.*?)\n<!-- releases:end -->", readme, re.S)
    assert block is not None and block.group(1) == markdown_table()


def test_every_model_names_a_commit_and_how_it_was_checked() -> None:
    for m in MODELS.values():
        assert m.release.commit and m.verified and m.kafka_class, m.key
        assert m.follows.startswith(m.release.cite)


def test_the_current_release_is_4_2_0() -> None:
    assert (CURRENT.version, CURRENT.commit[:8]) == ("4.2.0", "a18251ba")
    assert model("share-assign").release is CURRENT


def test_defaults_tables_are_named_once_and_an_unknown_one_is_refused() -> None:
    assert set(DEFAULTS) == {"released", "3.x"}
    with pytest.raises(EngineError, match="defaults: must be one of 'released', '3.x', got 'code-line'"):
        defaults_named("code-line")
