"""The Group Protocol and Replicas pages in Chinese beyond their first state: a strategy vote with no
common strategy (the rejected member's INCONSISTENT_GROUP_PROTOCOL and the upgrade without its first bounce),
and a dead broker with the preferred-leader election, no racks and the --generate plan."""

from __future__ import annotations

from helpers import shown_tables
from support.i18n_pages import english_left, run_page
from support.rendered_text import rendered_texts
from ui.text import i18n


def _missing() -> list[str]:
    return sorted(m for lang, m in i18n.MISSING if lang == "zh")


def test_group_protocol_in_chinese_with_a_rejected_member_and_no_first_bounce() -> None:
    at = run_page("pages/7_Group_Protocol.py", "zh")
    i18n.MISSING.clear()
    at.session_state["protocol.upgrade_view"] = True  # the lazy expanders (sections 4 and 5), opened
    at.session_state["protocol.restart_view"] = True
    at.run()
    at.text_area(key="protocol.lists").set_value("C0: range\nC1: cooperative-sticky")
    at.checkbox(key="protocol.skip_first").check()
    at.text_input(key="protocol.heartbeat_ms").input("50000")
    at.run()
    assert not at.exception, at.exception
    errors = [e.value for e in at.error]
    assert any(e.startswith("C1: INCONSISTENT_GROUP_PROTOCOL：成员 C1") for e in errors), errors
    assert any("INCONSISTENT_GROUP_PROTOCOL 失败" in e for e in errors), errors  # the upgrade without bounce 1
    assert any("heartbeat.interval.ms 必须小于" in w.value for w in at.warning)
    headers = {str(c) for df in shown_tables(at) for c in df.columns}
    assert {"成员", "投票给", "客户端再均衡协议", "协调器如何得知", "被拒绝的成员"} <= headers, headers
    assert "再均衡次数" in headers, headers  # section 5's restart table ("rebalances")
    assert english_left(at) == []
    assert _missing() == []


def test_replicas_in_chinese_with_a_dead_broker_no_racks_and_the_generate_plan() -> None:
    at = run_page("pages/8_Replicas.py", "zh")
    i18n.MISSING.clear()
    at.session_state["replicas.decommission_view"] = True  # the lazy expanders, opened
    at.session_state["replicas.replication_view"] = True
    at.run()
    at.radio(key="replicas.placer").set_value("admin-utils")  # AdminUtils' captions (the striped placer's:
    at.text_input(key="replicas.racks").set_value("")          # tests/pages/test_i18n_replicas_placer.py)
    at.selectbox(key="replicas.kill").set_value(0)
    at.checkbox(key="replicas.elect").check()
    at.radio(key="replicas.plan").set_value("kafka-reassign-partitions --generate")
    at.run()
    assert not at.exception, at.exception
    assert at.selectbox(key="replicas.kill").value == 0  # the option values stay as they are
    assert at.selectbox(key="replicas.kill").options[0] == "无"
    assert any("不感知机架" in c.value for c in at.caption)
    texts = rendered_texts(at)
    assert "下载重分配 JSON（kafka-reassign-partitions --execute 格式）" in texts
    assert "Broker 0 宕机后" in texts and "恢复 + 优先 leader 选举后" in texts  # the leader-count bars
    assert english_left(at) == []
    assert _missing() == []

