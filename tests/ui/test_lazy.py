"""ui.frame.lazy: an expander or a tab whose content runs only while it is open, and the widgets inside that keep
their values while it is closed (``persist_state="page"``)."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _section_page() -> None:
    import streamlit as st

    from ui.frame.lazy import lazy_section

    def draw(name: str) -> None:
        st.session_state[f"runs.{name}"] = st.session_state.get(f"runs.{name}", 0) + 1
        st.markdown(f"inside {name}")
        kept = st.text_input("kept", "default", key=f"{name}.kept", persist_state="page")
        st.markdown(f"{name} kept {kept}")

    lazy_section("Closed by default", "lazy.closed", draw, "closed")
    lazy_section("Opened by its caller", "lazy.opened", draw, "opened", opened=True)
    st.markdown("after the sections")


def _shown(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown]


def _runs(at: AppTest, name: str) -> int:
    return at.session_state[f"runs.{name}"] if f"runs.{name}" in at.session_state else 0


def test_a_section_draws_nothing_until_its_key_is_true() -> None:
    at = AppTest.from_function(_section_page, default_timeout=60).run()
    assert not at.exception, at.exception
    assert [e.label for e in at.expander] == ["Closed by default", "Opened by its caller"]
    assert "inside closed" not in _shown(at) and _runs(at, "closed") == 0  # not drawn, not even run
    assert not at.session_state["lazy.closed"]
    assert "after the sections" in _shown(at)
    at.session_state["lazy.closed"] = True
    at.run()
    assert "inside closed" in _shown(at) and _runs(at, "closed") == 1
    at.session_state["lazy.closed"] = False
    at.run()
    assert "inside closed" not in _shown(at) and _runs(at, "closed") == 1  # closed again: not run again


def test_opened_opens_the_section_on_the_first_run() -> None:
    at = AppTest.from_function(_section_page, default_timeout=60).run()
    assert at.session_state["lazy.opened"]
    assert "inside opened" in _shown(at) and _runs(at, "opened") == 1
    assert [m for m in _shown(at) if m.startswith("inside")] == ["inside opened"]


def test_a_persisted_widget_keeps_its_value_while_its_section_is_closed() -> None:
    at = AppTest.from_function(_section_page, default_timeout=60)
    at.session_state["lazy.closed"] = True
    at.run()
    assert "closed kept default" in _shown(at)
    at.text_input(key="closed.kept").set_value("typed").run()
    assert "closed kept typed" in _shown(at)
    for opened in (False, True):  # closed (the field is not drawn), then opened again
        at.session_state["lazy.closed"] = opened
        at.run()
        assert not at.exception, at.exception
        assert ("closed.kept" in [t.key for t in at.text_input]) is opened
    assert at.text_input(key="closed.kept").value == "typed"
    assert "closed kept typed" in _shown(at)


def _forgetful_page() -> None:
    """The same section with a widget that does not persist: Streamlit drops its value once it is not drawn."""
    import streamlit as st

    from ui.frame.lazy import lazy_section

    def draw() -> None:
        st.text_input("lost", "default", key="lost")

    lazy_section("Section", "lazy.forgetful", draw)


def test_without_persist_state_the_value_is_lost_so_the_sections_widgets_need_it() -> None:
    at = AppTest.from_function(_forgetful_page, default_timeout=60)
    at.session_state["lazy.forgetful"] = True
    at.run()
    at.text_input(key="lost").set_value("typed").run()
    for opened in (False, True):
        at.session_state["lazy.forgetful"] = opened
        at.run()
    assert at.text_input(key="lost").value == "default"


def _tabs_page() -> None:
    from collections.abc import Callable

    import streamlit as st

    from ui.frame.lazy import lazy_tabs

    def view(name: str) -> Callable[[], None]:
        def draw() -> None:
            st.session_state[f"runs.{name}"] = st.session_state.get(f"runs.{name}", 0) + 1
            st.markdown(f"tab {name}")

        return draw

    opened = st.query_params.get("open")  # a link asking for a tab
    lazy_tabs({"First": view("first"), "Second": view("second"), "Third": view("third")}, "lazy.tabs",
              opened=opened)


def test_lazy_tabs_run_only_the_open_tab() -> None:
    at = AppTest.from_function(_tabs_page, default_timeout=60).run()
    assert not at.exception, at.exception
    assert [t.label for t in at.tabs] == ["First", "Second", "Third"]
    assert [m for m in _shown(at) if m.startswith("tab ")] == ["tab first"]  # the first tab, open by default
    assert (_runs(at, "first"), _runs(at, "second"), _runs(at, "third")) == (1, 0, 0)
    at.session_state["lazy.tabs"] = "Third"
    at.run()
    assert not at.exception, at.exception
    assert [m for m in _shown(at) if m.startswith("tab ")] == ["tab third"]
    assert (_runs(at, "first"), _runs(at, "second"), _runs(at, "third")) == (1, 0, 1)


def test_a_link_opens_its_tab_on_the_first_visit_only() -> None:
    at = AppTest.from_function(_tabs_page, default_timeout=60)
    at.query_params["open"] = "Second"
    at.run()
    assert not at.exception, at.exception
    assert [m for m in _shown(at) if m.startswith("tab ")] == ["tab second"]
    at.session_state["lazy.tabs"] = "Third"  # the person chooses another tab: the link no longer decides
    at.run()
    assert [m for m in _shown(at) if m.startswith("tab ")] == ["tab third"]


def _linked_page() -> None:
    import streamlit as st

    from ui.frame.lazy import linked

    st.markdown(f"linked {linked(('lazy.field', 'lazy.other'))}")


def test_linked_is_true_for_a_url_value_of_a_section_field_not_yet_applied() -> None:
    from ui.frame.state import KEY_URL_WIDGETS

    assert AppTest.from_function(_linked_page, default_timeout=60).run().markdown[0].value == "linked False"
    at = AppTest.from_function(_linked_page, default_timeout=60)
    at.query_params["lazy.field"] = "30"
    assert at.run().markdown[0].value == "linked True"
    at.session_state[KEY_URL_WIDGETS] = {"lazy.field": "30"}  # applied already (page_setup): the user may close it
    assert at.run().markdown[0].value == "linked False"
    at.query_params["lazy.field"] = "60"  # a new link
    assert at.run().markdown[0].value == "linked True"
