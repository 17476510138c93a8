"""Every worked example in a docstring (``>>>``) of the engine and of the Streamlit glue is run and must hold.

Modules are found by walking ``engine/`` and ``ui/``; one test per module so a failure names it.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import engine
import ui

MODULES = sorted(m.name for package in (engine, ui) for m in pkgutil.walk_packages(package.__path__,
                                                                                     f"{package.__name__}."))


@pytest.mark.parametrize("name", MODULES)
def test_worked_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples fail"


def test_the_glue_has_worked_examples() -> None:
    ran = sum(doctest.testmod(importlib.import_module(name)).attempted for name in MODULES if name.startswith("ui."))
    assert ran >= 20
