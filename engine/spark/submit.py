"""The ``spark-submit`` entry: ``spark-submit engine/spark/submit.py --input URI --partitions 12 --output D``.

Takes the same flags as ``python -m engine load`` (``engine.spark.cli``); the master, memory and
archives are spark-submit's own (``--master``, ``--archives kpl-env.tar.gz#env``, ``--conf ...``).
spark-submit runs this file as a script, so the repository root goes on ``sys.path`` first.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # pragma: no cover - exercised through spark-submit
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from engine.spark.cli import main

    sys.exit(main(sys.argv[1:]))
