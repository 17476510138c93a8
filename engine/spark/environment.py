"""The executors' Python: a packed virtualenv holding what the job's Python workers import.

Executors on other hosts have neither this venv's path nor its packages.  ``pack_executor_env``
builds a fresh virtualenv holding numpy and pyarrow (hard links into this venv's installed
packages: no download, same versions; numba only when asked), and packs it with ``venv-pack``
into a zip that Spark unpacks next to each executor (``--python-env kpl-env.zip`` on the CLI,
i.e. ``spark.archives=kpl-env.zip#env`` and ``PYSPARK_PYTHON=./env/bin/python``).  Without numba
``engine.producer.arrow`` runs its numpy kernel: same answers.

A zip, because Spark refuses to unpack a tar whose ``bin/python`` is a symlink out of the archive;
venv-pack's zip stores the interpreter itself.  Like every venv-pack archive it needs the same base
Python (``pyvenv.cfg``'s ``home``, same version) on the executors' hosts; pyspark itself comes
from the worker's ``SPARK_HOME``.  Command line::

    .venv/bin/python -m engine.spark.environment --output kpl-env.zip [--with-numba]

Example::

    >>> package_patterns(with_numba=False)[:3]
    ('numpy', 'numpy-*.dist-info', 'numpy.libs')
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

from engine.errors import EngineError

BASE_PACKAGES = ("numpy", "numpy-*.dist-info", "numpy.libs", "pyarrow", "pyarrow-*.dist-info")
NUMBA_PACKAGES = ("numba", "numba-*.dist-info", "llvmlite", "llvmlite-*.dist-info")
# sources and tests no executor loads; shared libraries all stay (pyarrow.lib links libarrow_substrait and others)
PRUNED = ("__pycache__", "tests", "include", "_examples", "*.pyx", "*.pxd", "*.h")


def package_patterns(with_numba: bool) -> tuple[str, ...]:
    return BASE_PACKAGES + (NUMBA_PACKAGES if with_numba else ())


def _site_packages() -> Path:
    return Path(next(p for p in sys.path if p.endswith("site-packages")))


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another filesystem: copy
        shutil.copy2(source, target)


def _fill(target: Path, with_numba: bool) -> None:
    source = _site_packages()
    for pattern in package_patterns(with_numba):
        for path in source.glob(pattern):
            if path.is_dir():
                shutil.copytree(path, target / path.name, copy_function=_link_or_copy,
                                ignore=shutil.ignore_patterns(*PRUNED))
            else:
                _link_or_copy(str(path), str(target / path.name))


def pack_executor_env(output: str | os.PathLike[str], with_numba: bool = False) -> Path:
    """Build and pack the executors' virtualenv into ``output`` (a ``.zip``); returns its path."""
    archive = Path(output)
    if archive.suffix != ".zip":
        raise EngineError(f"output {str(output)!r}: must end in .zip (Spark cannot unpack venv-pack's tar here)")
    try:
        import venv_pack
    except ImportError:
        raise EngineError("venv-pack is not installed: pip install venv-pack") from None
    with tempfile.TemporaryDirectory(prefix="kpl-env-") as temp:
        env = Path(temp) / "env"
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env)], check=True)
        _fill(next((env / "lib").glob("python*/site-packages")), with_numba)
        if (env / "lib64").is_symlink():  # lib64 -> lib: a zip would hold every package twice
            (env / "lib64").unlink()
        archive.parent.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():  # venv-pack adds its rewritten pyvenv.cfg after the original
            warnings.filterwarnings("ignore", "Duplicate name: 'pyvenv.cfg'", UserWarning)
            venv_pack.pack(prefix=str(env), output=str(archive), format="zip", force=True)
    return archive


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.spark.environment",
                                     description="Pack the Spark executors' Python environment (venv-pack)")
    parser.add_argument("--output", default="kpl-env.zip")
    parser.add_argument("--with-numba", action="store_true", help="include numba (default: numpy kernel)")
    args = parser.parse_args(argv)
    try:
        path = pack_executor_env(args.output, args.with_numba)
    except EngineError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"{path} ({path.stat().st_size / 2**20:,.1f} MiB): --python-env {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
