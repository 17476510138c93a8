"""The line under an answer that says which Kafka it follows, read from the engine's release registry.

Every page that shows a model's answer calls ``release_caption`` with the model's key in
``engine.release.MODELS``: the release and commit, the Kafka class, what is not checked against Kafka's code,
and one line for each difference that users of an older Kafka meet.  Nothing here names a release itself.
"""

from __future__ import annotations

import streamlit as st

from engine.release import model
from ui.text.i18n import _, tr


def release_text(key: str) -> str:
    """The caption's text for model ``key``, in the session's language."""
    m = model(key)
    parts = [_("Follows {release} (commit {commit}): {kafka_class}.").format(
        release=tr(m.release.label), commit=m.release.commit[:12], kafka_class=m.kafka_class)]
    if m.not_verified:
        parts.append(_("Not checked against Kafka's code: {what}.").format(what=tr(m.not_verified)))
    parts += [_("On {releases}: {differs}.").format(releases=tr(o.releases), differs=tr(o.differs))
              for o in m.older]
    return " ".join(parts)


def release_caption(*keys: str) -> None:
    """One caption per model key, under the answer it describes."""
    for key in keys:
        st.caption(release_text(key))


def client_model(client: str) -> str:
    """The registry key of the client-side assignors a client (``"java"`` or ``"librdkafka"``) runs."""
    return "assign-librdkafka" if client == "librdkafka" else "assign"
