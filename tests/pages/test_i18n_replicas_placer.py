"""The Replicas page in Chinese with a KRaft controller's placement (the default): the choice, the draw and its
caption, the release it follows, another draw, the controller's refusal and the --generate plan's caption (in the
decommission section's lazy expander)."""

from __future__ import annotations

from support.i18n_pages import english_left, run_page
from ui.text import i18n


def _missing() -> list[str]:
    return sorted(m for lang, m in i18n.MISSING if lang == "zh")


def test_replicas_in_chinese_with_the_striped_placer_and_another_draw() -> None:
    at = run_page("pages/8_Replicas.py", "zh")
    i18n.MISSING.clear()
    at.button(key="replicas.redraw").click().run()
    assert not at.exception, at.exception
    assert at.radio(key="replicas.placer").value == "striped"
    captions = [c.value for c in at.caption]
    assert any(c.startswith(f"new Random({at.text_input(key='replicas.seed').value})：机架顺序为 r1, r2, r3")
               for c in captions), captions
    assert any("StripedReplicaPlacer" in c and "遵循" in c for c in captions), captions
    assert english_left(at) == []
    at.session_state["replicas.decommission_view"] = True  # the plans, in their lazy expander
    at.run()
    assert any("上的 --generate 在剩余的 Broker 上运行 StripedReplicaPlacer" in c.value for c in at.caption)
    assert english_left(at) == []
    assert _missing() == []


def test_the_controllers_refusal_and_no_racks_in_chinese() -> None:
    at = run_page("pages/8_Replicas.py", "zh")
    i18n.MISSING.clear()
    at.text_input(key="replicas.racks").set_value("")
    at.run()
    assert any("无机架" in c.value for c in at.caption)
    assert english_left(at) == [] and _missing() == []
    at.text_input(key="replicas.rf").input("7").run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [
        "Kafka 拒绝：InvalidReplicationFactorException：无法将分区复制 7 次："
        "目标副本因子 7 无法达到，因为只注册了 6 个 Broker。"]
    for key, value in (("replicas.rf", "0"), ("replicas.rf", "3"), ("replicas.partitions", "0")):
        at.text_input(key=key).input(value).run()
        assert english_left(at) == [], (key, value)
    assert _missing() == []
