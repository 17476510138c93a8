"""The shape of a guided lesson: steps that ask one concrete question whose answer the engine computes.

A ``LessonStep`` carries no prose (the dashboard keeps the translated texts, keyed by ``step.id``): it carries
the question's kind, the engine's answer, the facts the texts quote (numbers, partition lists), what the question
states (``states``: every input the answer depends on, machine-readable, so a test recomputes the answer from it
alone and checks the question shows each one), the Kafka class and method that compute the answer (or, for a
rule of thumb, where it comes from; ``unchecked`` names the release registry's model when the answer rests on a
part of it not checked against Kafka), the page that shows the same scenario, and, where a reference article gets
the answer wrong, what the article says and what kind of error it is (a typo, out of date since a Kafka release,
or wrong).  ``check`` compares a trainee's answer with
the engine's::

    >>> step = LessonStep("keys.partition", "number", 40, facts={"key": "21"}, tolerance=0)
    >>> check(step, 40).correct, check(step, "41").correct
    (True, False)
    >>> check(LessonStep("x", "partitions", ("t0-1", "t0-0")), ["t0-0", "t0-1"]).correct
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from engine.errors import ScenarioError

if TYPE_CHECKING:
    from engine.scenario import Scenario

Kind = Literal["number", "partitions", "choice"]
MAX_ANSWER_CHARS = 10_000


NoteKind = Literal["typo", "outdated", "wrong", "exception"]


@dataclass(frozen=True)
class ArticleNote:
    """Where a reference article disagrees with what Kafka computes (from ``engine.consumer.explain`` or sizing):
    a ``typo``, ``outdated`` (right for the Kafka before ``since``) or plainly ``wrong``;
    an ``exception``: right for consumer groups, with an exception it does not mention (share groups,
    KIP-932); ``why`` says how."""

    article: str
    says: str
    kafka: str
    kind: NoteKind = "wrong"
    since: str = ""
    why: str = ""


@dataclass(frozen=True)
class PageLink:
    """The full page that shows the step's scenario: ``pages/<file>`` with these URL parameters (a preset, the
    page's widgets) and, for a group no preset holds, the ``scenario`` itself (the dashboard's ``?s=`` link)."""

    page: str
    params: tuple[tuple[str, str], ...] = ()
    scenario: Scenario | None = None


@dataclass(frozen=True)
class LessonStep:
    """One predict-then-reveal question; ``answer`` is what the engine computed (a number, partitions or a choice)."""

    id: str
    kind: Kind
    answer: Any
    facts: Mapping[str, Any] = field(default_factory=dict)
    kafka: str = ""
    choices: tuple[str, ...] = ()
    tolerance: float = 0.0
    scene: tuple[Mapping[str, str], ...] = ()
    link: PageLink | None = None
    article: ArticleNote | None = None
    unit: str = ""  # shown after the answer ("%")
    source: Literal["kafka", "rule", "model"] = "kafka"  # Kafka's code, a rule of thumb's source, or the lab's model
    # what the question tells the trainee (counts, configs, faults, the scene it points at): all the answer needs
    states: Mapping[str, Any] = field(default_factory=dict)
    unchecked: str = ""  # an engine.release key: the answer rests on that model's part not checked against Kafka


@dataclass(frozen=True)
class Lesson:
    id: str
    steps: tuple[LessonStep, ...]


@dataclass(frozen=True)
class Verdict:
    correct: bool
    given: Any
    expected: Any


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise ScenarioError(f"answer: expected a number, got {value!r}")
    try:
        number = float(str(value).strip().rstrip("%").replace(",", ""))
    except ValueError:
        raise ScenarioError(f"answer: expected a number, got {str(value)[:40]!r}") from None
    if number != number or abs(number) > 1e15:
        raise ScenarioError(f"answer: expected a finite number, got {str(value)[:40]!r}")
    return number


def _partitions(value: Any) -> frozenset[str]:
    if isinstance(value, str):
        if len(value) > MAX_ANSWER_CHARS:
            raise ScenarioError(f"answer: longer than {MAX_ANSWER_CHARS} characters")
        value = value.replace(";", ",").split(",")
    return frozenset(str(v).strip().replace("p", "-", 1) if "-" not in str(v) else str(v).strip()
                     for v in value if str(v).strip())


def check(step: LessonStep, given: Any) -> Verdict:
    """The trainee's answer against the engine's; a malformed answer is a one-line ``ScenarioError``."""
    if step.kind == "number":
        correct = abs(_number(given) - float(step.answer)) <= step.tolerance
    elif step.kind == "partitions":
        correct = _partitions(given) == frozenset(step.answer)
    else:
        correct = str(given) == str(step.answer)
    return Verdict(correct, given, step.answer)
