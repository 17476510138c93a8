"""The shared scenario in ``st.session_state``: initialised on every page, restored from the URL.

Any page calls ``init_state()`` (or just ``current_scenario()``) first: a fresh browser session opening a
page by its URL runs that page alone, so the page itself must set the state up.  A shareable URL carries
the scenario as ``?s=<base64url(zlib(JSON))>`` (or a preset as ``?preset=seed-d``).

``current_ref()`` is the small reference every cached call takes (``ScenarioRef``: the JSON and its
SHA-256; equal and hashed by the key alone), computed once per change of the scenario, not per rerun.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field

import streamlit as st

from engine.errors import ScenarioError
from engine.presets import DEFAULT_PRESET, PRESETS, build_preset
from engine.scenario import Scenario, dumps_scenario, loads_scenario
from ui.runtime.memo import STORE, cached_call, deep_size
from ui.text.messages import for_people

KEY_SCENARIO = "scenario.current"
KEY_JSON = "scenario.json"
KEY_REF = "scenario.ref"
KEY_PRESET = "scenario.preset"
KEY_VERSION = "scenario.version"
KEY_URL_CODE = "scenario.url_code"
KEY_URL_ERROR = "scenario.url_error"
MAX_SHARE_CODE = 200_000  # characters of ?s=
MAX_SHARE_JSON = 16 * 2**20  # bytes after decompression


@dataclass(frozen=True, eq=False)
class ScenarioRef:
    """A scenario as cached calls take it: ``key`` (SHA-256 of ``json``) alone decides equality and hash.

    ``ScenarioRef.from_json('{}') == ScenarioRef(ScenarioRef.from_json('{}').key, "anything")``: a cache
    looks up 64 characters, never the whole JSON (``ui.runtime.memo`` hashes the reference by its key).
    """

    key: str
    json: str = field(repr=False)

    @classmethod
    def from_json(cls, text: str) -> ScenarioRef:
        return cls(hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest(), text)

    @classmethod
    def of(cls, scenario: Scenario) -> ScenarioRef:
        return cls.from_json(dumps_scenario(scenario))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ScenarioRef) and other.key == self.key

    def __hash__(self) -> int:
        return hash(self.key)


def encode_scenario(scenario: Scenario) -> str:
    """The scenario JSON, zlib-compressed, base64url without padding (for ``?s=``)."""
    raw = zlib.compress(dumps_scenario(scenario).encode("utf-8"), 9)
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def decode_scenario(code: str) -> Scenario:
    """Inverse of ``encode_scenario``; anything malformed is a one-line ``ScenarioError``."""
    if len(code) > MAX_SHARE_CODE:
        raise ScenarioError(f"shared link: the scenario code is longer than {MAX_SHARE_CODE} characters")
    try:
        raw = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
        inflater = zlib.decompressobj()
        text = inflater.decompress(raw, MAX_SHARE_JSON)
        if inflater.unconsumed_tail:
            raise ScenarioError(f"shared link: the scenario is larger than {MAX_SHARE_JSON // 2**20} MiB")
        return loads_scenario(text.decode("utf-8"))
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise ScenarioError(f"shared link: not a scenario code ({type(exc).__name__})") from None


def set_scenario(scenario: Scenario, preset: str | None = None, new_version: bool = True,
                 ref: ScenarioRef | None = None) -> None:
    """Make ``scenario`` the current one; ``new_version`` resets the builder's tables to it."""
    ss = st.session_state
    ss[KEY_SCENARIO] = scenario
    ss[KEY_REF] = ref or ScenarioRef.of(scenario)
    STORE.put(("scenario", ss[KEY_REF].key), scenario, deep_size(scenario))  # scenario_of: no re-parse
    ss[KEY_JSON] = ss[KEY_REF].json
    ss[KEY_PRESET] = preset
    if new_version:
        ss[KEY_VERSION] = ss.get(KEY_VERSION, 0) + 1


def _load_from_url() -> None:
    ss = st.session_state
    code = st.query_params.get("s")
    preset = st.query_params.get("preset")
    marker = f"s={code}" if code else (f"preset={preset}" if preset else None)
    if not marker or marker == ss.get(KEY_URL_CODE):
        return
    ss[KEY_URL_CODE] = marker
    try:
        if code:  # a room opening one link decodes it once: (scenario, ref) kept in the server's cache
            digest = hashlib.sha256(code.encode("utf-8", "surrogatepass")).hexdigest()
            scenario, ref = _with_ref(("share", digest), lambda: decode_scenario(code))
            set_scenario(scenario, ref=ref)
        else:
            scenario, ref = _with_ref(("preset", str(preset)), lambda: build_preset(str(preset)))
            set_scenario(scenario, str(preset), ref=ref)
        ss.pop(KEY_URL_ERROR, None)
    except ScenarioError as exc:
        ss[KEY_URL_ERROR] = for_people(str(exc))


def _with_ref(key: tuple[str, str], build: Callable[[], Scenario]) -> tuple[Scenario, ScenarioRef]:
    def both() -> tuple[Scenario, ScenarioRef]:
        scenario = build()
        return scenario, ScenarioRef.of(scenario)

    return cached_call(key, both)


# Every page's choices in the share link (besides ?s=/?preset=, ?lang=, ?client=, ?present=, ?lesson=&step=):
# widget key -> type.  A new value in the URL (a shared link) seeds the widget; the widget's value is written back.
URL_WIDGETS: dict[str, type] = {
    "assign.step": int, "assign.config_strategy": str,
    "rebalance.source": str, "rebalance.animate": list,  # rebalance.step: pages/2_Rebalance.py (its key varies)
    "keys.partitions": int, "keys.remap_to": int, "sizing.target_mb_s": str,  # str: a ui.inputs.numbers text field
    "wheel.tick_ms": int, "wheel.wheel_size": int, "protocol.restart_s": int, "protocol.restart_session": int,
    "compare.left": str, "compare.right": str, "compare.left_partitions": int, "compare.right_partitions": int,
    "compare.step": int,
    # the lessons' links (engine.lessons: each step's own inputs on its page)
    "keys.source": str, "keys.paste": str, "keys.kind": str, "keys.count": int, "keys.distinct": int,
    "keys.zipf_s": float, "keys.null_pct": int, "keys.group_ids": str, "keys.offsets_partitions": int,
    "sizing.producer_mb_s": str, "sizing.consumer_mb_s": str, "sizing.streams.subtopologies": int,
    "sizing.streams.sources.0": str, "sizing.streams.stateful.0": int, "sizing.streams.instances": int,
    "sizing.streams.threads": int, "sizing.streams.standbys": int,
    "wheel.start_ms": int, "wheel.source": str, "wheel.hand": str,
    "producer.acks": str, "producer.idempotence": str, "producer.partitions": int, "producer.records": int,
    "producer.interval_ms": int, "producer.latency_ms": int, "producer.request.timeout.ms": int,
    "producer.delivery.timeout.ms": int, "producer.faults": str, "producer.txn_ops": str, "producer.txn_ids": str,
    "log.segment_size": int, "log.retention.ms": int, "log.batches": int, "log.records_per_batch": int,
    "log.value_bytes": int, "log.keys": int, "log.interval_ms": int, "log.at": int,
    "replicas.isr.leo": str, "replicas.isr.isr": list, "replicas.isr.min_insync": int, "replicas.isr.fail": list,
    "replicas.isr.unclean": str, "lessons.path": str,
}
KEY_URL_WIDGETS = "scenario.url_widgets"  # the URL text last applied to / written from each widget


def _url_value(text: str, kind: type) -> object:
    """A widget value from URL text (None when it does not parse; the widget then keeps its own)."""
    text = text.strip()[:1000]
    if kind is list:
        return [part for part in text.split(",") if part]
    if kind is str:
        return text
    try:
        return int(text) if kind is int else float(text)
    except ValueError:
        return None


def _url_text(value: object) -> str:
    return ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)


def share_widget(name: str, key: str, kind: type) -> None:
    """Keep widget ``key`` in the URL as ``?name=``: a value the URL names for the first time seeds the widget
    (call before the widget is drawn); the widget's value is written back."""
    ss, seen = st.session_state, st.session_state.setdefault(KEY_URL_WIDGETS, {})
    text = st.query_params.get(name)
    if text is not None and text != seen.get(name):
        value = _url_value(text, kind)
        if value is not None:
            ss[key] = value
    if key in ss and ss[key] is not None:
        seen[name] = _url_text(ss[key])
        if st.query_params.get(name) != seen[name]:
            st.query_params[name] = seen[name]


def sync_url_widgets() -> None:
    for key, kind in URL_WIDGETS.items():
        share_widget(key, key, kind)


def init_state() -> None:
    """Set up the shared scenario once per session (URL first, else the default preset)."""
    _load_from_url()
    sync_url_widgets()
    if KEY_SCENARIO not in st.session_state:
        set_scenario(build_preset(DEFAULT_PRESET), DEFAULT_PRESET)


def _ensure_state() -> None:
    """``init_state`` unless this session has a scenario already: the page's first call (``render_sidebar``,
    ``page_setup``) applied the URL in this run; the getters a page calls a dozen times need not again."""
    if KEY_SCENARIO not in st.session_state:
        init_state()


def current_scenario() -> Scenario:
    """The current (always valid) scenario, initialising the session state if needed."""
    _ensure_state()
    return st.session_state[KEY_SCENARIO]


def current_scenario_json() -> str:
    _ensure_state()
    return st.session_state[KEY_JSON]


def current_ref() -> ScenarioRef:
    """The reference of the current scenario (recomputed only when the JSON in the state changed)."""
    _ensure_state()
    ss = st.session_state
    ref = ss.get(KEY_REF)
    if not isinstance(ref, ScenarioRef) or ref.json is not ss[KEY_JSON]:
        ref = ss[KEY_REF] = ScenarioRef.from_json(ss[KEY_JSON])
    return ref


def current_preset() -> str | None:
    """The preset key while the scenario is an unedited preset, else None."""
    _ensure_state()
    return st.session_state.get(KEY_PRESET)


def preset_title(key: str | None) -> str:
    return PRESETS[key].title if key in PRESETS else "custom scenario"


def url_error() -> str | None:
    return st.session_state.get(KEY_URL_ERROR)
