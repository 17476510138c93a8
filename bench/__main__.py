"""``python -m bench [NAME [ARGS...]]``: run every benchmark, or one with its own arguments.

Each benchmark prints a table of this engine's figures against the baseline its issue names.  A module may set
``RUN_ALL_ARGS`` (e.g. the browser benchmark's ``["--quick"]``): the arguments it gets when every benchmark runs.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def names() -> list[str]:
    here = Path(__file__).parent
    return sorted(m.name for m in pkgutil.iter_modules([str(here)]) if not m.name.startswith("_"))


def main(argv: list[str]) -> int:
    if argv and argv[0] in names():
        importlib.import_module(f"bench.{argv[0]}").main(argv[1:])
        return 0
    if argv:
        print(f"unknown benchmark {argv[0]!r}; choose from {', '.join(names())}", file=sys.stderr)
        return 2
    for name in names():
        print(f"\n=== bench/{name}.py")
        module = importlib.import_module(f"bench.{name}")
        module.main(list(getattr(module, "RUN_ALL_ARGS", [])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
