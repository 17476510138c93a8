"""The fit of ``python -m bench cost``: per model, a non-negative least-squares fit of seconds (and of bytes) on
the features ``engine.cost.terms`` names, each case weighted by 1 / its measurement (relative error), and the
table of each model's worst relative error on its held-out cases.
"""

from __future__ import annotations

import numpy as np

from bench.cost.cases import Case
from bench.cost.measure import MIB, Measured
from engine import cost
from engine.cost import terms
from engine.cost.model import evaluate

SECONDS_FLOOR = 0.05
SECONDS_FLOORS = {"streams_assign": 0.001}  # a model whose every case runs in milliseconds
BYTES_FLOOR = 16 * MIB


def seconds_floor(model: str) -> float:
    return SECONDS_FLOORS.get(model, SECONDS_FLOOR)


def nnls(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Least squares with every coefficient >= 0: solve, drop the most negative term, solve again."""
    active = list(range(a.shape[1]))
    x = np.zeros(a.shape[1])
    while active:
        solution, *_ = np.linalg.lstsq(a[:, active], b, rcond=None)
        if (solution >= 0).all():
            x[active] = solution
            return x
        active.pop(int(np.argmin(solution)))
    return x


def fit(rows: list[Measured], names: list[str], target: str, floor: float) -> dict[str, float]:
    """Coefficients of ``names`` minimising the relative error of ``target`` (seconds or peak_bytes)."""
    x = np.array([[1.0 if n == "1" else r.features.get(n, 0.0) for n in names] for r in rows])
    y = np.array([float(getattr(r, target)) for r in rows])
    weight = 1.0 / np.maximum(y, floor)
    scale = np.maximum(x.max(axis=0), 1e-12)  # columns of comparable size for lstsq
    coefficients = nnls(x / scale * weight[:, None], y * weight) / scale
    return {n: float(c) for n, c in zip(names, coefficients) if c > 0}


def relative_error(predicted: float, measured: float, floor: float) -> float:
    return abs(predicted - measured) / max(measured, floor)


def report(measured: list[Measured], models: dict[str, dict[str, dict[str, float]]],
           cases: list[Case]) -> list[str]:
    lines = [f"{'model':<38}{'fit':>4}{'held':>5}{'worst s err':>12}{'worst MiB err':>14}  worst held-out case"]
    by_model: dict[str, list[Measured]] = {}
    for m in measured:
        by_model.setdefault(m.model, []).append(m)
    for model, rows in by_model.items():
        held = [r for r in rows if r.held_out]
        fitted = [r for r in rows if not r.held_out]
        if model in terms.TERMS:
            predict = [evaluate(models[model], r.features, "") for r in held]
        else:  # derived rows: engine.cost's estimate, with the constants just fitted
            predict = [_estimate_again(cases, r) for r in held]
        errors = [(relative_error(p.seconds, r.seconds, seconds_floor(model)),
                   relative_error(p.peak_bytes, r.peak_bytes, BYTES_FLOOR), r, p) for r, p in zip(held, predict)]
        worst = max(errors, key=lambda e: e[0], default=None)
        worst_b = max((e[1] for e in errors), default=0.0)
        where = "" if worst is None else (f"{worst[2].label}: {worst[2].seconds:.2f} s measured, "
                                          f"{worst[3].seconds:.2f} s estimated")
        lines.append(f"{model:<38}{len(fitted):>4}{len(held):>5}{(worst[0] if worst else 0):>11.0%}"
                     f"{worst_b:>13.0%}  {where}")
    return lines


def _estimate_again(cases: list[Case], row: Measured) -> cost.Estimate:
    """A derived row's estimate from ``engine.cost`` now (its constants updated in place by ``main``)."""
    case = next(c for c in cases if (c.model, c.label) == (row.model, row.label))
    return case.prepare()[2] or cost.Estimate(0.0, 0, "")


def fit_all(measured: list[Measured]) -> dict[str, dict[str, dict[str, float]]]:
    models: dict[str, dict[str, dict[str, float]]] = {}
    for model, (seconds_terms, bytes_terms) in terms.TERMS.items():
        rows = [m for m in measured if m.model == model and not m.held_out]
        if not rows:
            continue
        models[model] = {"seconds": fit(rows, seconds_terms, "seconds", seconds_floor(model)),
                         "bytes": fit(rows, bytes_terms, "peak_bytes", BYTES_FLOOR)}
    return models
