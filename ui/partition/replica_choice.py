"""The Replicas page's placement choice: which Kafka class places a new topic's replicas (a KRaft controller's
``StripedReplicaPlacer``, the default, or ``AdminUtils``), its seed and start inputs, and the captions under
the answer (what it drew, which release and class it follows: ``engine.release``)."""

from __future__ import annotations

import random
from typing import Any

import streamlit as st

from engine.release import model
from engine.server.replicas import ADMIN_UTILS, STRIPED
from ui.frame.release_note import release_caption
from ui.inputs.numbers import whole_number_input
from ui.text.i18n import _, tr

MAX_SEED = 2**31 - 1
SEED_KEY = "replicas.seed"
DEFAULT_SEED = 42
MODEL_OF = {STRIPED: "replicas-striped", ADMIN_UTILS: "replicas"}  # engine.release keys


def placer_choice() -> str:
    """The radio (a KRaft controller's placement first) and one line on what it does differently."""
    labels = {STRIPED: _("What a {release} cluster does for a new topic (KRaft controller, StripedReplicaPlacer): "
                         "one possible draw").format(release=model(MODEL_OF[STRIPED]).release.label),
              ADMIN_UTILS: _("AdminUtils ({releases}: kafka-reassign-partitions.sh --generate, ZooKeeper-mode "
                             "clusters)").format(releases=tr(model(MODEL_OF[ADMIN_UTILS]).older[0].releases))}
    placer = str(st.radio(_("placement"), (STRIPED, ADMIN_UTILS), key="replicas.placer",
                          format_func=labels.__getitem__))
    st.caption(_("A KRaft controller draws random starts for the rack list and each rack's brokers, takes one "
                 "replica per rack from a rack one step further each partition (unfenced brokers lead, fenced ones "
                 "only follow) and reshuffles after as many partitions as unfenced brokers; AdminUtils walks one "
                 "rack-alternated broker list from a start index, followers shifted by a per-lap replica shift."))
    return placer


def another_draw() -> None:
    """on_click of "Another draw": a new seed, as a cluster's unseeded Random draws another placement."""
    st.session_state[SEED_KEY] = random.randrange(MAX_SEED + 1)


def start_and_seed(placer: str, left: Any, right: Any) -> tuple[int, int]:
    """The fixed start index (-1 for the striped placer, which has none) and the seed, in two columns."""
    if placer == STRIPED:
        seed = whole_number_input(_("seed of new Random(seed)"), 0, MAX_SEED, DEFAULT_SEED, SEED_KEY, container=left,
                                  help=_("A controller's Random is unseeded: every seed is one placement it may "
                                         "make."))
        right.button(_("Another draw"), key="replicas.redraw", on_click=another_draw, width="stretch")
        return -1, seed
    start = whole_number_input(_("fixed start index (-1 = random, as Kafka)"), -1, 10_000, 0, "replicas.start",
                               container=left, help=_("Kafka uses it for both the first broker and the replica shift."))
    return start, whole_number_input(_("random seed (for -1)"), 0, MAX_SEED, DEFAULT_SEED, SEED_KEY, container=right)


def placement_caption(placer: str, placement: Any) -> None:
    """What the placement drew, then the release and class it follows."""
    if placer == STRIPED:
        racks = ", ".join(r if r is not None else _("no rack") for r in placement.rack_names)
        st.caption(_("new Random({seed}): racks in the order {racks}; a cluster's Random is unseeded, so this is one "
                     "placement among those it may make.").format(seed=placement.seed, racks=racks))
    elif placement.rack_alternated_broker_list:
        st.caption(_("start index {start}, replica shift {shift}; rack-alternated broker list {brokers}").format(
            start=placement.start_index, shift=placement.replica_shift,
            brokers=placement.rack_alternated_broker_list))
    else:
        st.caption(_("start index {start}, replica shift {shift}; rack-unaware (no broker has a rack)").format(
            start=placement.start_index, shift=placement.replica_shift))
    release_caption(MODEL_OF[placer])


def generate_caption(placer: str) -> str:
    """How ``--generate`` places the replicas, for the decommission plans' caption."""
    if placer == STRIPED:
        return _("--generate on {release} runs StripedReplicaPlacer (a new Random) over the remaining "
                 "brokers").format(release=model(MODEL_OF[STRIPED]).release.label)
    return _("--generate re-runs assignReplicasToBrokers over the remaining brokers")
