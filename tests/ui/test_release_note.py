"""The caption that names the Kafka release a page's answer follows: read from the registry, in both languages."""

from __future__ import annotations

import pytest

from engine.release import MODELS
from ui.frame.release_note import client_model, release_text
from ui.text import i18n


def _registry_texts() -> set[str]:
    texts = {m.not_verified for m in MODELS.values() if m.not_verified}
    return texts | {t for m in MODELS.values() for o in m.older for t in (o.releases, o.differs)}


@pytest.mark.parametrize("text", sorted(_registry_texts()))
def test_every_registry_text_has_chinese(text: str) -> None:
    assert i18n.lookup(text, "zh") is not None or not i18n.untranslated(text), text


def test_the_caption_names_release_commit_class_and_older_releases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "current_language", lambda: "en")
    text = release_text("server-assign")
    m = MODELS["server-assign"]
    assert m.release.label in text and m.release.commit[:12] in text and m.kafka_class in text
    assert m.older[0].differs in text


def test_the_chinese_caption_leaves_no_english_prose(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "current_language", lambda: "zh")
    for key in MODELS:
        i18n.MISSING.clear()
        release_text(key)
        assert not i18n.MISSING, (key, i18n.MISSING)


def test_a_client_picks_its_assignors_model() -> None:
    assert (client_model("java"), client_model("librdkafka")) == ("assign", "assign-librdkafka")
