"""Where the pipeline runs: one function, three places, the same code path.

* **local** (the embedded default): ``local[2]`` in this process, sized for a 2-core laptop
  (2 GiB driver heap, 8 shuffle partitions, UI off unless asked for), ``PYSPARK_PYTHON`` set to
  the running interpreter (``sys.executable``) when it is not set;
* **cluster**: ``--master spark://...|yarn|k8s://...`` or ``spark-submit engine/spark/job.py``
  (under spark-submit the master and memory it was given are kept);
* **remote**: ``SPARK_REMOTE=sc://host:15002`` (Spark Connect) — unless a ``--master`` is given.

Example::

    >>> options = SessionOptions(master="local[1]")
    >>> session_mode(options, environ={})
    'local'
    >>> session_mode(SessionOptions(), environ={"SPARK_REMOTE": "sc://spark:15002"})
    'remote'
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import SparkSession

DEFAULT_MASTER = "local[2]"
DEFAULT_DRIVER_MEMORY = "2g"
DEFAULT_SHUFFLE_PARTITIONS = 8
APP_NAME = "kafka-partition-lab-load"


@dataclass(frozen=True)
class SessionOptions:
    """How to get a SparkSession; ``None`` master means local (or spark-submit's, or SPARK_REMOTE)."""

    master: str | None = None
    app_name: str = APP_NAME
    ui: bool = False
    driver_memory: str = DEFAULT_DRIVER_MEMORY
    shuffle_partitions: int = DEFAULT_SHUFFLE_PARTITIONS
    quiet: bool = True  # the JVM's own stderr (startup banner, log4j) goes to jvm_log_path()
    extra: tuple[tuple[str, str], ...] = ()  # further Spark settings, e.g. (("spark.buffer.size", "1m"),)


def session_mode(options: SessionOptions, environ: Mapping[str, str] | None = None) -> str:
    """``"remote"`` (Spark Connect), ``"submit"`` (under spark-submit), ``"local"`` or ``"cluster"``."""
    env = os.environ if environ is None else environ
    if options.master is None and env.get("SPARK_REMOTE"):
        return "remote"
    if options.master is None and env.get("PYSPARK_GATEWAY_PORT"):
        return "submit"
    master = options.master or DEFAULT_MASTER
    return "local" if master.startswith("local") else "cluster"


def jvm_log_path() -> Path:
    """Where the JVM's stderr goes when ``quiet`` (one file per process, in the temp dir)."""
    return Path(tempfile.gettempdir()) / f"kpl-spark-{os.getpid()}.log"


def get_session(options: SessionOptions | None = None) -> SparkSession:
    """A SparkSession for ``options`` (reuses the active one: Spark allows one per process)."""
    options = options or SessionOptions()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    _export_pythonpath()
    logging.getLogger("py4j").setLevel(logging.ERROR)
    mode = session_mode(options)
    if mode == "remote":
        return _remote_session(options)
    with _without_spark_remote(options.master is not None):
        from pyspark.sql import SparkSession

        builder = SparkSession.builder.appName(options.app_name)
        for key, value in _conf(options, mode).items():
            builder = builder.config(key, value)
        with _quiet_jvm(options.quiet and not _jvm_running()):
            spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def spark_context_or_none(spark: SparkSession) -> object | None:
    """The SparkContext (for ``statusTracker``), or None under Spark Connect."""
    return None if _is_connect(spark) else spark.sparkContext


def ship_engine(spark: SparkSession) -> None:
    """Make ``engine`` importable by executors that do not share this machine's files.

    Local mode needs nothing (workers inherit ``PYTHONPATH``); a cluster or Spark Connect gets a zip
    of the package (``addPyFile`` / ``addArtifacts``), built once per process.
    """
    master = "remote" if _is_connect(spark) else spark.sparkContext.master
    if master.startswith("local"):
        return
    archive = _engine_zip()
    if master == "remote":
        spark.addArtifacts(str(archive), pyfile=True)
    else:
        spark.sparkContext.addPyFile(str(archive))


def _is_connect(spark: SparkSession) -> bool:
    return type(spark).__module__.startswith("pyspark.sql.connect")


def _engine_zip() -> Path:
    import shutil

    target = Path(tempfile.gettempdir()) / f"kpl-engine-{os.getpid()}"
    archive = target.with_suffix(".zip")
    if not archive.exists():
        root = Path(__file__).resolve().parents[2]
        shutil.make_archive(str(target), "zip", root_dir=root, base_dir="engine")
    return archive


def _export_pythonpath() -> None:
    """Python workers started by a local JVM find ``engine`` through ``PYTHONPATH``."""
    root = str(Path(__file__).resolve().parents[2])
    current = os.environ.get("PYTHONPATH", "")
    if root not in current.split(os.pathsep):
        os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (root, current) if p)


def stop_session() -> None:
    """Stop the active session (the next ``get_session`` starts a fresh one, e.g. another master)."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        active.stop()


def _conf(options: SessionOptions, mode: str) -> dict[str, str]:
    conf = {
        "spark.ui.enabled": str(options.ui).lower(),
        "spark.ui.showConsoleProgress": "false",  # the progress bar would go to stderr
        "spark.log.level": "ERROR",
        "spark.sql.session.timeZone": "UTC",  # windows and timestamps do not depend on the host
        "spark.sql.shuffle.partitions": str(options.shuffle_partitions),
        "spark.sql.execution.arrow.pyspark.enabled": "true",
        # 100k-row Arrow batches: fewer round trips, and engine.producer.arrow's compiled kernel (>= 20k keys)
        "spark.sql.execution.arrow.maxRecordsPerBatch": "100000",
    }
    if mode in ("local", "cluster"):
        conf["spark.master"] = options.master or DEFAULT_MASTER
    conf.update(dict(options.extra))
    if mode == "local":
        conf["spark.driver.memory"] = options.driver_memory
        conf["spark.driver.host"] = "127.0.0.1"
        conf["spark.driver.bindAddress"] = "127.0.0.1"
    return conf


def _remote_session(options: SessionOptions) -> SparkSession:
    from pyspark.sql import SparkSession

    return SparkSession.builder.remote(os.environ["SPARK_REMOTE"]).appName(options.app_name).getOrCreate()


def _jvm_running() -> bool:
    from pyspark import SparkContext

    return SparkContext._gateway is not None  # noqa: SLF001 - the only way to know before launching


@contextlib.contextmanager
def _without_spark_remote(active: bool) -> Iterator[None]:
    """An explicit ``--master`` wins over ``SPARK_REMOTE`` (pyspark would otherwise pick Connect)."""
    saved = os.environ.pop("SPARK_REMOTE", None) if active else None
    try:
        yield
    finally:
        if saved is not None:
            os.environ["SPARK_REMOTE"] = saved


@contextlib.contextmanager
def _quiet_jvm(active: bool) -> Iterator[None]:
    """Launch the JVM with its stderr in ``jvm_log_path()``; Python's stderr is restored after."""
    if not active:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    log = os.open(jvm_log_path(), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.dup2(log, 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(log)
