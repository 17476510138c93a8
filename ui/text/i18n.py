"""English and Simplified Chinese for every user-visible string: gettext catalogues maintained with Babel.

Strings are written in English in the code, wrapped in ``_()`` (counts as ``{n} consumer(s)`` with
``.format``); Babel extracts them
into ``locales/messages.pot`` and ``locales/zh/LC_MESSAGES/messages.po`` carries the Chinese (``make messages``
refreshes both; ``tests/ui/test_i18n.py`` fails when a wrapped string has no Chinese).  The ``.po`` file is read at
run time (no compiled ``.mo`` to keep in step).  Kafka's own terms (``partition.assignment.strategy``, class names,
config keys) stay as they are inside translated text.

The language comes from ``?lang=zh`` / ``?lang=en`` in the URL (kept there, so share links and page switches keep
it) or the sidebar switch; English is the default::

    >>> translate("Rebalance step", "zh") == catalog("zh").get("Rebalance step", "Rebalance step")
    True
    >>> translate("Rebalance step", "en")
    'Rebalance step'
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ui.text.url_choice import url_backed

LOCALES = Path(__file__).resolve().parents[2] / "locales"
DOMAIN = "messages"  # extracted from the code's ``_()`` literals by ``make messages``
LANGUAGES: dict[str, str] = {"en": "English", "zh": "简体中文"}
DEFAULT_LANGUAGE = "en"
QUERY_KEY = "lang"
STATE_KEY = "i18n.lang"

_last_language = DEFAULT_LANGUAGE  # see current_language
RUN_LANGUAGE = "_kpl_language"  # the language, kept on the script run it was read in (current_language)
_run_holder: list[Callable[[Any], object | None]] = [lambda ctx: None]  # keep_per_run
MISSING: set[tuple[str, str]] = set()  # (language, msgid) asked for but not translated; read by the tests
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]")
_CODE = re.compile(r"<(style|script)\b.*?</\1>|`[^`]*`|https?://\S+|%\{[^}]*\}|<[^>]+>|"
                   r"\b[\w-]+\.(?:log|index|timeindex|txnindex|snapshot|json|csv)(?![\w.])|"  # file names
                   r"\b\w+=(?:'[^']*'|\[(?:'[^']*'(?:,\s*)?)*\]|[\w.-]+)|\b[\w.]+(?=\((?!s\)))|"  # field=value, calls
                   r"(?<![\w-])--?[A-Za-z][\w.-]*|[\w.]+\[[^\]]*\][\w.\[\]]*", re.DOTALL)  # code, flags, field paths
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[._/:#'-][A-Za-z0-9]+)*")
KAFKA_WORDS = frozenset(
    "Kafka Apache Java Spark PySpark Connect librdkafka Streamlit Plotly Zipf murmur murmur2 range roundrobin "
    "sticky cooperative uniform eager consumer-protocol classic leader ISR KIP Python Broker".split()
)  # names that stay as they are in every language (identifier-shaped tokens are always kept)


@functools.cache
def catalog(language: str) -> dict[str, str]:
    """msgid -> translation of one language from every ``.po`` of ``locales/<language>/LC_MESSAGES``.

    ``messages.po`` holds the code's ``_()`` literals (extracted); ``runtime.po`` the texts that reach a page
    at run time (chart titles and axis labels, column headers, the engine's explanations and error messages),
    templates with ``{name}`` placeholders included.  Fuzzy and empty entries are left out."""
    if language == DEFAULT_LANGUAGE:
        return {}
    from babel.messages.pofile import read_po

    found: dict[str, str] = {}
    for path in sorted((LOCALES / language / "LC_MESSAGES").glob("*.po")):
        with path.open("rb") as f:
            po = read_po(f, locale=language)
        for m in po:
            if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and not m.fuzzy:
                found.setdefault(m.id, m.string)
    return found


@functools.cache
def templates(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The catalogue's ``{name}`` entries as patterns, the longest literal text first::

        >>> any(pattern.fullmatch("step 2: C1 leaves") for pattern, _ in templates("zh"))
        True
    """
    found = []
    for msgid, target in catalog(language).items():
        parts = _PLACEHOLDER.split(msgid)
        if len(parts) == 1:
            continue
        seen: set[str] = set()
        regex = ""
        for i, part in enumerate(parts):
            if i % 2 == 0:
                regex += re.escape(part)
            else:
                regex += f"(?P={part})" if part in seen else f"(?P<{part}>.+?)"
                seen.add(part)
        literal = sum(len(p) for p in parts[::2])
        found.append((literal, re.compile(regex, re.DOTALL), target))
    found.sort(key=lambda t: -t[0])
    return tuple((pattern, target) for _, pattern, target in found)


def lookup(text: str, language: str) -> str | None:
    """``text`` in ``language``: its own entry, else the first template it matches (values translated when
    they have an entry of their own; a value that stays English prose is recorded in ``MISSING``); ``None``
    when there is none."""
    exact = catalog(language).get(text)
    if exact is not None:
        return exact
    for pattern, target in templates(language):
        match = pattern.fullmatch(text)
        if match:
            return target.format(**{k: _value(v, language) for k, v in match.groupdict().items()})
    return None


def _value(value: str, language: str) -> str:
    translated = lookup(value, language)
    quoted = len(value) > 1 and value[0] in "'\"" and value[-1] == value[0]  # the user's own input, shown as typed
    if translated is None and not quoted and untranslated(value):
        MISSING.add((language, value))
    return value if translated is None else translated


def untranslated(text: str, keep: frozenset[str] = frozenset()) -> bool:
    """True when ``text`` reads as English prose with no Chinese in it: a word of three or more letters that is
    not code (`` `…` ``), an identifier (``group.instance.id``, ``C0``, ``t0-2``, ``CooperativeStickyAssignor``),
    an acronym, one of ``KAFKA_WORDS`` or one of ``keep`` (the scenario's own names)::

        >>> untranslated("Partitions per consumer"), untranslated("每个消费者的分区"), untranslated("`range` C0")
        (True, False, False)
    """
    if _CJK.search(text):
        return False
    return any(_prose(word) and word not in keep for word in _TOKEN.findall(_CODE.sub(" ", text)))


def _prose(token: str) -> bool:
    if len(token) < 3 or not token.isalpha() or token in KAFKA_WORDS or token.isupper():
        return False
    return not any(c.isupper() for c in token[1:])  # CamelCase is a class name


def translate(message: str, language: str) -> str:
    """``message`` in ``language``; the English text itself when there is no translation (recorded in
    ``MISSING`` when it reads as prose)."""
    if language == DEFAULT_LANGUAGE:
        return message
    translated = lookup(message, language)
    if translated is None:
        if untranslated(message):
            MISSING.add((language, message))
        return message
    return translated


def normalise(language: object) -> str:
    """A supported language code from user input (``zh-CN`` -> ``zh``); anything else is the default."""
    code = str(language or "").strip().lower().split("-")[0].split("_")[0]
    return code if code in LANGUAGES else DEFAULT_LANGUAGE


def keep_per_run(holder: Callable[[Any], object | None]) -> None:
    """Where ``current_language`` keeps the language it read: on ``holder(ctx)``, an object made anew for every
    script run (installed by ``ui.frame.patches``).  Without one, the language is read on every call."""
    _run_holder[0] = holder


def current_language() -> str:
    """The session's language: the sidebar switch, else ``?lang=``, else English; kept in the URL.

    Read once per script run when a holder is installed (``keep_per_run``; a page asks for it hundreds of
    times, once per text): the switch sets it in a callback, before a run starts, so it cannot change within
    one.  Outside a script run (AppTest calling a widget's ``format_func`` to find an option) it is the
    language of the last run in this process, so formatted options match what that run drew."""
    global _last_language
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return _last_language
    run = _run_holder[0](ctx)
    known = getattr(run, RUN_LANGUAGE, None)
    if known is not None:
        _last_language = known
        return str(known)
    language = _last_language = url_backed(STATE_KEY, QUERY_KEY, DEFAULT_LANGUAGE, normalise)
    if run is not None:
        setattr(run, RUN_LANGUAGE, language)
    return language


def _(message: str) -> str:
    """Translate a literal for the current session (the name Babel extracts)."""
    return translate(message, current_language())


def tr(text: str) -> str:
    """A text made at run time (the engine's titles, explanations, error messages) in the session's language.

    Not extracted by Babel (it is not a literal): its entry, or a ``{name}`` template it matches, lives in
    ``runtime.po``."""
    return translate(text, current_language())


MAX_TRANSLATED_POINTS = 2_000  # per-point hover texts translated up to this many points a trace (beyond: as is)
_FIGURE_TEXTS = ("title.text", "legend.title.text", "coloraxis.colorbar.title.text")


def _translated(value: Any, language: str) -> Any:
    return translate(value, language) if isinstance(value, str) and value else value


def translate_layout(layout: dict[str, Any], language: str) -> None:
    """A Plotly layout's visible texts (title, axis titles, legend, annotations, buttons, slider labels),
    translated in place."""
    for path in _FIGURE_TEXTS:
        *parents, leaf = path.split(".")
        node: Any = layout
        for name in parents:
            node = node.get(name) if isinstance(node, dict) else None
        if isinstance(node, dict) and leaf in node:
            node[leaf] = _translated(node[leaf], language)
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            if isinstance(axis.get("title"), dict):
                axis["title"]["text"] = _translated(axis["title"].get("text"), language)
            if isinstance(axis.get("ticktext"), (list, tuple)):
                axis["ticktext"] = [_translated(t, language) for t in axis["ticktext"]]
    for note in layout.get("annotations") or ():
        note["text"] = _translated(note.get("text"), language)
    for menu in layout.get("updatemenus") or ():
        for button in menu.get("buttons") or ():
            button["label"] = _translated(button.get("label"), language)
    for slider in layout.get("sliders") or ():
        current = slider.get("currentvalue") or {}
        current["prefix"] = _translated(current.get("prefix"), language)
        for step in slider.get("steps") or ():
            step["label"] = _translated(step.get("label"), language)


def translate_figure(fig: Any, language: str) -> Any:
    """A copy of a Plotly figure with its titles, labels, trace names and hover templates in ``language``."""
    import plotly.graph_objects as go

    if language == DEFAULT_LANGUAGE:
        return fig
    spec = copy.deepcopy(fig.to_dict())  # cached figures (and their frozen dict) are shared by every session
    translate_layout(spec.setdefault("layout", {}), language)
    for trace in spec.get("data") or ():
        for key in ("name", "hovertemplate", "hovertext", "text"):
            value = trace.get(key)
            if isinstance(value, str) and key in ("name", "hovertemplate"):
                trace[key] = _translated(value, language)
            elif isinstance(value, str):
                trace[key] = lookup(value, language) or value  # a per-point text: translated when it has an entry
            elif key == "hovertext" and isinstance(value, (list, tuple)) and len(value) <= MAX_TRANSLATED_POINTS:
                trace[key] = [lookup(v, language) or v if isinstance(v, str) else v for v in value]  # best effort
    for frame in spec.get("frames") or ():
        translate_layout(frame.setdefault("layout", {}), language)
    return go.Figure(spec, skip_invalid=True)


MAX_TRANSLATED_CELLS = 20_000  # text cells looked up per table (beyond: as is; prose tables are far smaller)


def translate_cell(value: Any, language: str) -> Any:
    """One table cell in ``language``: a text that reads as prose and has an entry (or a ``{name}`` template)
    in the catalogues is translated; data (ids, numbers, names, code) stays as it is::

        >>> translate_cell("C0", "zh"), translate_cell(3, "zh")
        ('C0', 3)
    """
    if not isinstance(value, str) or not untranslated(value):
        return value
    return _cell(value, language)


@functools.lru_cache(maxsize=8192)
def _cell(value: str, language: str) -> str:
    return lookup(value, language) or value


VALUE_COLUMNS = frozenset({"group.protocol"})  # columns of a config's values, Kafka's names (never translated)


def translate_columns(frame: Any, language: str) -> Any:
    """A pandas DataFrame with its column headers and its prose cells in ``language`` (see ``translate_cell``;
    ids, numbers and names are data and stay, and so do the cells of ``VALUE_COLUMNS``: ``group.protocol``
    ``consumer`` is the protocol's name, not the word).  A Styler keeps its cells (its
    styles index them)."""
    if language == DEFAULT_LANGUAGE or not hasattr(frame, "rename"):
        return frame
    text = [c for c in frame.columns
            if isinstance(c, str) and frame[c].dtype == object and c not in VALUE_COLUMNS]
    if text and frame.shape[0] * len(text) <= MAX_TRANSLATED_CELLS:
        frame = frame.assign(**{c: frame[c].map(lambda v: translate_cell(v, language)) for c in text})
    return frame.rename(columns=lambda c: _translated(c, language))


BOM = "\ufeff"  # spreadsheet programs read a CSV as UTF-8 only with it


def with_bom(data: Any, mime: str | None) -> Any:
    """CSV download data with a UTF-8 byte-order mark (Excel otherwise garbles Chinese ids)::

        >>> with_bom("a,b\\n", "text/csv").encode("utf-8")[:3], with_bom("{}", "application/json")
        (b'\\xef\\xbb\\xbf', '{}')
    """
    if mime != "text/csv":
        return data
    if isinstance(data, str):
        return data if data.startswith(BOM) else BOM + data
    if isinstance(data, bytes):
        return data if data.startswith(BOM.encode()) else BOM.encode() + data
    return data
