"""AppTest of the builder's Import section on the home page: paste, upload, connect (librdkafka's mock
cluster), the preview, replacing the scenario, the imported group on every page, credentials forgotten."""

from __future__ import annotations

from typing import Any

import pytest

from engine.tools.detect import parse_text
from engine.tools.to_scenario import to_scenario
from helpers import REPO, TESTS, open_page

FIXTURES = TESTS / "fixtures" / "kafka_tools"
BUNDLE = (FIXTURES / "cluster_bundle.txt").read_text()


def home() -> Any:
    return open_page("../app.py")


def button(at: Any, label: str) -> Any:
    return next(b for b in at.button if b.label == label)


def table(at: Any, column: str) -> Any:
    return next(d.value for d in at.dataframe if column in d.value.columns)


def metrics(at: Any) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def contains(obj: Any, secret: str, seen: set[int] | None = None, depth: int = 0) -> bool:
    """Whether ``secret`` is anywhere inside ``obj`` (dicts, sequences, objects' attributes, protobufs)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or depth > 10:
        return False
    seen.add(id(obj))
    if isinstance(obj, (str, bytes)):
        return secret in (obj if isinstance(obj, str) else obj.decode("utf-8", "replace"))
    if isinstance(obj, dict):
        return any(
            contains(k, secret, seen, depth + 1) or contains(v, secret, seen, depth + 1)
            for k, v in obj.items()
        )
    if isinstance(obj, (list, tuple, set, frozenset)):
        return any(contains(v, secret, seen, depth + 1) for v in obj)
    if hasattr(obj, "__dict__"):
        return contains(vars(obj), secret, seen, depth + 1)
    return secret in repr(obj)


def paste(at: Any, text: str) -> Any:
    at.text_area(key="import.paste").set_value(text)
    return at.button(key="import.recognise").click().run()


def test_paste_preview_then_replace() -> None:
    at = paste(home(), BUNDLE)
    assert not at.exception and not at.error
    assert metrics(at) == {"Topics": "2", "Partitions": "9", "Consumers": "4", "Weights": "lag"}
    assert at.session_state["scenario.current"].name != "orders-service (imported)"  # nothing replaced yet
    members = table(at, "now owns")
    assert list(members["member id"])[1] == "consumer-orders-service-2-61b339ff-2481-44e5-998b-88dbaa99e079"
    assert list(members["partitions"]) == [3, 3, 3, 0] and list(members["host"])[0] == "/10.20.1.11"
    assert any("do not print subscriptions" in i.value for i in at.info)
    assert any(e.label.startswith("Not used (") for e in at.expander)
    at.button(key="import.apply").click().run()
    assert not at.exception
    assert at.session_state["scenario.current"] == to_scenario(parse_text(BUNDLE)).scenario
    assert any("is now the current scenario" in s.value for s in at.success)
    assert "import.data" not in at.session_state


@pytest.mark.parametrize("fixture", ["cluster_bundle.txt", "streams_group_42.txt"])
def test_the_imported_group_works_on_every_page(fixture: str) -> None:
    at = paste(home(), (FIXTURES / fixture).read_text())
    at.button(key="import.apply").click().run()
    expected = at.session_state["scenario.current"]
    for page in sorted(p.name for p in (REPO / "pages").glob("*.py")):
        at.switch_page(f"pages/{page}").run()
        assert not at.exception, (page, at.exception)
        assert at.session_state["scenario.current"] == expected, page


def test_a_bad_paste_names_its_line_and_changes_nothing() -> None:
    at = home()
    before = at.session_state["scenario.current"]
    bad = (
        (FIXTURES / "cg_members_verbose_3x.txt")
        .read_text()
        .replace("3               orders(2,3)", "3               orders(2;3)")
    )
    at = paste(at, bad)
    assert [e.value for e in at.error] == [
        "line 4: cannot read the assignment 'orders(2;3), payments(1)' near 'orders(2;3)'"
    ]
    assert at.session_state["scenario.current"] == before and not at.metric


def test_upload_several_files_and_choose_weights() -> None:
    at = home()
    at.file_uploader(key="import.files").set_value(
        [
            ("offsets.txt", (FIXTURES / "cg_offsets_3x.txt").read_bytes(), "text/plain"),
            ("log-dirs.txt", (FIXTURES / "log_dirs.txt").read_bytes(), "text/plain"),
        ]
    ).run()
    assert not at.exception and not at.error
    assert metrics(at)["Weights"] == "size"
    at.radio(key="import.weights").set_value("lag").run()
    assert metrics(at)["Weights"] == "lag"
    where = list(table(at, "why")["where"])
    assert "offsets.txt line 2" in where and "log-dirs.txt line 3" in where
    at.file_uploader(key="import.files").set_value([("bin.txt", b"\xff\xfe\x00", "text/plain")]).run()
    assert [e.value for e in at.error] == ["bin.txt: not UTF-8 text"]


def test_choosing_among_groups() -> None:
    text = (
        BUNDLE
        + "\n"
        + (FIXTURES / "cg_offsets_3x.txt").read_text().replace("\norders-service", "\nbilling-app   ")
    )
    at = paste(home(), text)
    assert at.selectbox(key="import.group").value == "billing-app"
    assert metrics(at)["Consumers"] == "3"
    at.selectbox(key="import.group").set_value("orders-service").run()
    assert metrics(at)["Consumers"] == "4"


def test_a_streams_group_preview_shows_its_threads_and_what_was_inferred() -> None:
    text = (FIXTURES / "streams_group_42.txt").read_text()
    at = paste(home(), text)
    assert not at.exception and not at.error
    assert metrics(at) == {"Topics": "3", "Partitions": "15", "Stream threads": "4", "Application instances": "2"}
    assert not any(r.label == "Partition weights" for r in at.radio)  # a streams scenario has none
    threads = table(at, "standby")
    assert list(threads["member id"])[0] == "J2x9QnVfRkOe4gYb7LmZ1w"
    assert list(threads["active"])[0] == "0_0, 0_3, 1_0" and list(threads["standby"])[0] == "0_2"
    assert list(threads["process"])[2] == "1f9e8d7c-6b5a-4c3d-a2e1-f0a9b8c7d6e5"
    assert any("Streams group 'orders-enricher': subtopologies 0, 1." in c.value for c in at.caption)
    infos = [i.value for i in at.info]
    assert any(i.startswith("stateful is inferred") for i in infos)
    assert any(i.startswith("num.standby.replicas is inferred as 1") for i in infos)
    assert any(i.startswith("source topics matched by partition count") for i in infos)
    at.button(key="import.apply").click().run()
    assert not at.exception
    current = at.session_state["scenario.current"]
    assert current == to_scenario(parse_text(text)).scenario
    assert current.group_type == "streams" and len(current.current_tasks) == 4


@pytest.mark.parametrize("offsets", [True, False])
def test_a_streams_group_preview_in_chinese(offsets: bool) -> None:
    """Without the offsets view, the subtopologies read placeholder topics, and the preview says so."""
    from streamlit.testing.v1 import AppTest

    from support.i18n_pages import english_left
    from ui.text import i18n

    text = (FIXTURES / "streams_group_42.txt").read_text()
    at = AppTest.from_file(str(REPO / "app.py"), default_timeout=120)
    at.query_params["lang"] = "zh"
    i18n.MISSING.clear()
    at = paste(at.run(), text if offsets else text.split("\n\n")[0])
    assert not at.exception and not at.error
    infos = [i.value for i in at.info]
    assert any(i.startswith("是否有状态是推断的") for i in infos)
    placeholder = "kafka-streams-groups.sh 不打印子拓扑读取哪些主题：2 个子拓扑各读取一个以它命名的占位主题"
    assert any(i.startswith(placeholder) for i in infos) is not offsets
    assert english_left(at) == [] and sorted(m for lang, m in i18n.MISSING if lang == "zh") == []


def test_two_streams_groups_are_refused_in_one_line() -> None:
    text = (FIXTURES / "streams_group_42.txt").read_text()
    at = paste(home(), text + "\n" + text.replace("orders-enricher ", "billing-app     "))
    assert [e.value for e in at.error] == [
        "2 streams groups in the input ('billing-app', 'orders-enricher'): paste one group's "
        "kafka-streams-groups.sh output at a time"]


@pytest.fixture
def cluster():
    pytest.importorskip("confluent_kafka")
    from support.mock_cluster import MockCluster

    with MockCluster(brokers=3, racks={1: "az1", 2: "az2", 3: "az3"}) as mc:
        mc.create_topic("orders", partitions=6, rf=3)
        mc.set_controller(1)
        yield mc


def connect(at: Any, **fields: Any) -> Any:
    generation = at.session_state["import.generation"] if "import.generation" in at.session_state else 0
    for name, value in fields.items():
        widget = (at.selectbox if name in ("protocol", "mechanism") else at.text_input)(
            key=f"import.f{generation}.{name}"
        )
        widget.set_value(str(value) if name == "timeout" else value)
    return button(at, "Read the cluster").click().run()


def test_connect_reads_the_mock_cluster_and_forgets_the_fields(cluster) -> None:
    at = connect(home(), bootstrap=cluster.bootstrap, timeout=10)
    assert not at.exception and not at.error
    assert metrics(at) == {"Topics": "1", "Partitions": "6", "Consumers": "0", "Weights": "none"}
    assert any("consumer groups were not listed" in i.value for i in at.info)  # the mock has no ListGroups
    assert any(cluster.bootstrap in t.value for t in at.text)
    secret = "pw-d41d8cd98f-never-kept"
    at = connect(
        at,
        bootstrap=cluster.bootstrap,
        timeout=3,
        protocol="SASL_PLAINTEXT",
        mechanism="PLAIN",
        username="svc-orders",
        password=secret,
    )
    assert at.error[0].value.startswith("authentication failed at 127.0.0.1:")
    assert secret not in at.error[0].value
    assert not contains(at.session_state._state._state, secret)  # not in any session or widget state
    assert all(w.value == "" for w in at.text_input if w.label in ("SASL password", "Bootstrap servers"))


def test_connect_to_nothing_is_one_line() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    at = connect(home(), bootstrap=f"127.0.0.1:{port}", timeout=1, group="orders")
    assert len(at.error) == 1 and at.error[0].value.startswith(f"cannot reach broker at 127.0.0.1:{port} (")
