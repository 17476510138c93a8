"""ui.frame.tables: a small table drawn static (``st.table``), its floats written as the interactive grid shows them;
a large one kept as the grid (``st.dataframe``)."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ui.frame.tables import STATIC_CELLS, STATIC_ROWS, grid_text, is_static


def _frame(rows: int, columns: int) -> pd.DataFrame:
    return pd.DataFrame({f"c{c}": range(rows) for c in range(columns)})


@pytest.mark.parametrize(("rows", "columns", "static"), [
    (0, 1, True), (1, 1, True), (STATIC_ROWS, 1, True), (STATIC_ROWS + 1, 1, False),
    (STATIC_ROWS, STATIC_CELLS // STATIC_ROWS, True),  # 40 x 50: exactly 2,000 cells
    (STATIC_ROWS, STATIC_CELLS // STATIC_ROWS + 1, False),  # 40 x 51: too many cells for 40 rows
    (20, STATIC_CELLS // 20 + 1, False),  # few rows, but 2,020 cells
    (1, STATIC_CELLS, True), (1, STATIC_CELLS + 1, False),
])
def test_is_static_bounds_rows_and_cells(rows: int, columns: int, static: bool) -> None:
    assert (STATIC_ROWS, STATIC_CELLS) == (40, 2_000)
    assert is_static(_frame(rows, columns)) is static


@pytest.mark.parametrize(("value", "shown"), [
    (1.0, "1"), (12.0, "12"), (100.0, "100"), (0.0, "0"), (-0.0, "0"), (1e6, "1000000"),  # whole floats
    (2.5, "2.5"), (1 / 3, "0.3333"), (2 / 3, "0.6667"), (0.1 + 0.2, "0.3"), (1.25, "1.25"),  # at most 4 decimals
    (-2.5, "-2.5"), (-1 / 3, "-0.3333"), (-7.0, "-7"), (-0.00001, "0"),  # negative: a rounded -0 is "0"
    (0.00004, "0"), (0.00006, "0.0001"),
    (math.nan, None), (None, None),  # missing: an empty cell, never "nan" or "None"
])
def test_grid_text_writes_a_float_as_the_grid_shows_it(value: float | None, shown: str | None) -> None:
    column = grid_text(pd.DataFrame({"x": [value, 1.5]}))["x"]
    assert column.dtype == object
    assert column.tolist() == [shown, "1.5"]


def test_grid_text_leaves_whole_numbers_texts_and_the_frame_itself_alone() -> None:
    frame = pd.DataFrame({"n": [1, -2, 3], "name": ["a", "-", "1.50000"], "ok": [True, False, True],
                          "r": [0.5, -0.125, math.nan]}, index=[7, 8, 9])
    shown = grid_text(frame)
    assert shown["n"].dtype == frame["n"].dtype and shown["n"].tolist() == [1, -2, 3]
    assert shown["name"].tolist() == ["a", "-", "1.50000"]  # a text is not a float: unchanged
    assert shown["ok"].tolist() == [True, False, True]
    assert shown["r"].tolist() == ["0.5", "-0.125", None]
    assert list(shown.index) == [7, 8, 9] and list(shown.columns) == ["n", "name", "ok", "r"]
    assert frame["r"].dtype == float and frame["r"].iloc[0] == 0.5  # a copy: the caller's frame keeps its floats


def _tables_page() -> None:
    import pandas as pd

    from ui.frame.tables import table

    table(pd.DataFrame({"member": ["C0", "C1", "C2"], "partitions": [3, 4, 3], "load / mean": [0.9, 1.2, 0.9]}),
          key="small")
    table([{"member": f"C{i}", "partitions": i, "load / mean": i / 3} for i in range(100)], key="big")
    table([{"member": "C9", "ratio": 2 / 3}])  # rows as mappings, no key


def test_a_small_table_is_drawn_static_and_a_large_one_as_the_grid() -> None:
    at = AppTest.from_function(_tables_page, default_timeout=60).run()
    assert not at.exception, at.exception
    assert [node.type for node in at if node.type in ("table", "dataframe")] == ["table", "dataframe", "table"]
    small, mapped = (t.value for t in at.table)
    assert list(small.columns) == ["member", "partitions", "load / mean"]  # no index column: hidden
    assert small.to_dict("list") == {"member": ["C0", "C1", "C2"], "partitions": [3, 4, 3],
                                     "load / mean": ["0.9", "1.2", "0.9"]}
    assert mapped.to_dict("list") == {"member": ["C9"], "ratio": ["0.6667"]}
    (big,) = at.dataframe
    assert len(big.value) == 100
    assert big.value["load / mean"].dtype == float  # the grid gets the numbers themselves
    assert big.value["load / mean"].iloc[1] == pytest.approx(1 / 3)


def _large_table_page() -> None:
    import pandas as pd

    from ui.frame.tables import table

    table(pd.DataFrame({"n": range(100)}), key="demo.rows", large="Every row (table)")
    table(pd.DataFrame({"n": range(3)}), key="demo.few", large="A few rows (table)")


def test_a_large_table_with_a_label_waits_behind_its_expander_and_a_small_one_is_shown() -> None:
    at = AppTest.from_function(_large_table_page, default_timeout=60).run()
    assert not at.exception, at.exception
    assert [e.label for e in at.expander] == ["Every row (table)"] and not at.dataframe  # closed: not drawn
    assert len(at.table) == 1 and at.table[0].value["n"].tolist() == [0, 1, 2]  # small: static, no expander
    at.session_state["demo.rows.view"] = True
    at.run()
    assert len(at.dataframe) == 1 and at.dataframe[0].value["n"].tolist() == list(range(100))
