"""The Assignments comparison as a one-page offline HTML handout, in the page's language."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from engine import Assignor, balance_row
from ui.assignments.cached import grid_figure, metrics_of
from ui.frame.presenter import handout_html
from ui.frame.state import ScenarioRef
from ui.scenario.cached import outcomes_or_error
from ui.text.i18n import _, current_language, translate_columns, translate_figure


def assignment_handout_button(ref: ScenarioRef, step: int, assignors: Sequence[Assignor]) -> None:
    """The Assignments comparison as a one-page offline HTML handout (built when the button is clicked, from the
    server's cache: the button keeps the scenario's key, never its results, so a closed session holds none)."""
    language = current_language()  # the handout in the page's language: headers, chart titles and labels
    title, intro = _("Kafka Partition Lab: assignments compared"), _("Step {step} of the scenario.").format(step=step)

    def handout() -> str:  # built on click, not on every run (a room of 30 pays it once per click)
        results = {a: r for a in assignors if not isinstance(r := outcomes_or_error(ref, a), str)}
        table = translate_columns(pd.DataFrame([balance_row(a, metrics_of(ref, a, step), r[step])
                                                for a, r in results.items()]), language)
        figures = [(a.title, translate_figure(grid_figure(ref, a, step, a.title), language)) for a in results]
        return handout_html(title, intro, table, figures)

    st.download_button(_("Handout (one-page HTML, works offline)"), handout,
                       "assignments-handout.html", "text/html", key="assign.download_handout",
                       icon=":material/description:")
