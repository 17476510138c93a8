"""One convention for positions in messages: 1-based on the pages (as the builder's "row 3"),
JSON field paths (0-based, ``members[2]``) in the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

from streamlit.testing.v1 import AppTest

from helpers import REPO
from ui.text.messages import for_people

DUPLICATE = {"topics": {"t0": 2}, "members": [{"id": "a", "topics": ["t0"]}, {"id": "b", "topics": ["t0"]},
                                              {"id": "a", "topics": ["t0"]}]}


def test_field_paths_are_counted_from_one_for_people() -> None:
    assert for_people("members[2].id: duplicate 'a'") == "member 3, id: duplicate 'a'"
    assert for_people("steps[0].members[0].topics[1]: x") == "step 1, member 1, topic 2: x"
    assert for_people("weights['t0'][0]: must be >= 0") == "weights['t0'][0]: must be >= 0"  # partition 0


def test_home_page_names_the_third_member_as_member_3() -> None:
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=60).run()
    next(t for t in at.text_area if t.key == "builder.json").set_value(json.dumps(DUPLICATE)).run()
    at.button(key="builder.load_json").click().run()
    messages = [e.value for e in at.error]
    assert any("member 3, id: duplicate 'a'" in m for m in messages), messages
    assert not any("members[2]" in m for m in messages)


def test_the_cli_keeps_the_field_path() -> None:
    payload = {**DUPLICATE, "strategy": "range"}
    done = subprocess.run([sys.executable, "-m", "engine", "assign"], input=json.dumps(payload), text=True,
                          capture_output=True, cwd=REPO, timeout=120)
    assert done.returncode == 2 and "members[2].id: duplicate 'a'" in done.stderr
