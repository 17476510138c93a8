"""Teaching notes on the client choice (Assignments): whether a Java and a librdkafka group leader give the same
assignment at a step, where a consumer of the other client would get other partitions, and where the real
librdkafka client crashes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from engine.comparison import Assignor, not_offered
from engine.consumer.librdkafka.teaching import (
    MAX_LISTED_MEMBERS,
    MAX_LISTED_PARTITIONS,
    NAMES,
    differing_members,
)
from engine.scenario import TopicPartition
from ui.assignments.cached import client_crash_of, client_difference
from ui.frame.state import ScenarioRef
from ui.scenario.cached import estimate_of, outcomes_or_error, outcomes_ready
from ui.text.i18n import DEFAULT_LANGUAGE, _, current_language, tr


def _other(client: str, assignor: Assignor) -> Assignor:
    return Assignor("classic", assignor.name, "java" if client == "librdkafka" else "librdkafka")


def client_notes(ref: ScenarioRef, step: int, client: str, results: dict[Assignor, list | str]) -> None:
    """Teaching points: a verdict per strategy (the same assignment with either client, or how many partitions
    differ), where a consumer of the other client would get other partitions, and where the real librdkafka
    client crashes.  A note never makes the page wait for a worker: the other client's assignors run only when
    kept or inline (``outcomes_ready``; librdkafka's cooperative-sticky on 50,000 partitions x 500 members is a
    minute); the rest are named with their estimate."""
    same: list[str] = []
    differs: list[str] = []
    dear: list[str] = []
    for assignor, outcome in results.items():
        if assignor.group_protocol != "classic" or assignor.name in not_offered("librdkafka"):
            continue
        if not outcomes_ready(ref, _other(client, assignor)):
            dear.append(f"{assignor.name} ({estimate_of(ref, _other(client, assignor)).seconds:,.0f} s)")
            continue
        other = outcomes_or_error(ref, _other(client, assignor))
        if isinstance(outcome, str) or isinstance(other, str):
            librdkafka = assignor if client == "librdkafka" else _other(client, assignor)
            crash = client_crash_of(ref, librdkafka)
            if crash:
                st.warning(_("{strategy}: a group of librdkafka consumers does not get here. {crash}").format(
                    strategy=assignor.name, crash=tr(crash)))
            elif isinstance(other, str) and client == "librdkafka":  # with Java shown it is only noise
                st.caption(_("{strategy}: no comparison with the other client ({reason})").format(
                    strategy=assignor.name, reason=tr(other)))
            continue
        moved, note = client_difference(ref, assignor, _other(client, assignor), step)
        if moved:
            differs.append(_("{strategy} differs on {n} partition(s)").format(strategy=assignor.name, n=moved))
        else:
            same.append(assignor.name)
        if note:
            st.info(note if current_language() == DEFAULT_LANGUAGE
                    else translated_note(assignor.name, client, outcome[step].assignment, other[step].assignment))
    verdict(same, differs)
    if dear:
        st.caption(_("Not compared with the {other} client here, to keep this page quick (its estimated work): "
                     "{strategies}. Choose that client above to see its assignment.").format(
            other=NAMES["java" if client == "librdkafka" else "librdkafka"], strategies=", ".join(dear)))


def verdict(same: Sequence[str], differs: Sequence[str]) -> None:
    """One line: which strategies give the same assignment with a Java and a librdkafka leader here, and on how
    many partitions the others differ."""
    parts = [_("same here: {strategies}").format(strategies=", ".join(same))] if same else []
    parts += list(differs)
    if parts:
        st.caption(_("Java vs librdkafka at this step: {verdict}.").format(verdict="; ".join(parts)))


def _listed(tps: Sequence[TopicPartition]) -> str:
    ordered = sorted(tps, key=lambda tp: (tp.topic, tp.partition))
    text = ", ".join(str(tp) for tp in ordered[:MAX_LISTED_PARTITIONS])
    more = len(ordered) - MAX_LISTED_PARTITIONS
    if not text:
        return _("nothing")
    return _("{partitions} and {n} more").format(partitions=text, n=more) if more > 0 else text


def translated_note(strategy: str, shown_client: str, shown: Mapping[str, Sequence[TopicPartition]],
                    other: Mapping[str, Sequence[TopicPartition]]) -> str:
    """``engine.consumer.librdkafka.teaching.client_note`` worded in the session's language: the same members
    and partitions, its words from the catalogue (English pages show the engine's own note)."""
    differ = differing_members(shown, other)
    listed = "; ".join(f"{m} {_listed(other.get(m, ()))} ({NAMES[shown_client]}: {_listed(shown.get(m, ()))})"
                       for m in differ[:MAX_LISTED_MEMBERS])
    if len(differ) > MAX_LISTED_MEMBERS:
        listed += _("; and {n} more").format(n=len(differ) - MAX_LISTED_MEMBERS)
    other_client = "librdkafka" if shown_client == "java" else "java"
    return _("{strategy}: a {other} consumer would get different partitions than a {shown} consumer for {n} of "
             "{members} members: {listed}.").format(strategy=strategy, other=NAMES[other_client],
                                                    shown=NAMES[shown_client], n=len(differ),
                                                    members=len(set(shown) | set(other)), listed=listed)
