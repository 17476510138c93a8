"""Where the pipeline runs: one function, three places, the same code path.

* **local** (the embedded default): ``local[2]`` in this process, sized for a 2-core laptop
  (2 GiB driver heap, 8 shuffle partitions, UI off unless asked for), ``PYSPARK_PYTHON`` set to
  the running interpreter (``sys.executable``) when it is not set;
* **cluster**: ``--master spark://...|yarn|k8s://...`` or ``spark-submit engine/spark/submit.py``
  (under spark-submit the master and memory it was given are kept);
* **remote**: ``SPARK_REMOTE=sc://host:15002`` (Spark Connect) — unless a ``--master`` is given.

Executors elsewhere need ``engine`` and its Python packages (numpy, pyarrow; numba optional: without
it ``engine.producer.arrow`` uses numpy, same answers).  ``ship_engine`` sends a zip of ``engine/``
(``addPyFile``, or ``addArtifacts`` under Connect); ``SessionOptions.python_env`` ships a packed
virtualenv (``venv-pack``): ``spark.archives=<archive>#env`` and the executors' Python set to
``./env/bin/python`` (under Connect: ``addArtifacts(..., archive=True)`` and
``spark.sql.execution.pyspark.python``).  Only local mode points workers at this interpreter
(``sys.executable``); elsewhere ``PYSPARK_PYTHON`` stays what the user set (Spark's default: ``python3``).

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
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.errors import EngineError

if TYPE_CHECKING:  # pragma: no cover
    from pyspark import SparkContext
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
    python_env: str | None = None  # packed virtualenv for the executors (path or URI of .tar.gz/.tar/.zip)


def session_mode(options: SessionOptions, environ: Mapping[str, str] | None = None) -> str:
    """``"remote"`` (Spark Connect), ``"submit"`` (under spark-submit), ``"local"`` or ``"cluster"``."""
    env = os.environ if environ is None else environ
    if options.master is None and env.get("SPARK_REMOTE"):
        return "remote"
    if options.master is None and env.get("PYSPARK_GATEWAY_PORT"):
        return "submit"
    master = options.master or DEFAULT_MASTER
    return "local" if master.startswith("local") else "cluster"


PYTHON_ENV_NAME = "env"  # where executors unpack ``python_env``: ./env/bin/python


def jvm_log_path() -> Path:
    """Where the JVM's stderr goes when ``quiet`` (one file per process, in the temp dir)."""
    return Path(tempfile.gettempdir()) / f"kpl-spark-{os.getpid()}.log"


def log_hint() -> str:
    """`` (Spark log: <path>)`` when this process launched a JVM that wrote one; else empty (Connect)."""
    path = jvm_log_path()
    return f" (Spark log: {path})" if path.is_file() and path.stat().st_size else ""


def runs_elsewhere(spark: SparkSession) -> bool:
    """True when executors (or a Connect server) may not share this machine's disk."""
    return _is_connect(spark) or not str(spark.sparkContext.master).startswith("local")


def get_session(options: SessionOptions | None = None) -> SparkSession:
    """A SparkSession for ``options`` (reuses the active one: Spark allows one per process)."""
    options = options or SessionOptions()
    mode = session_mode(options)
    if mode == "local":
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    elif options.python_env is not None:
        os.environ["PYSPARK_PYTHON"] = f"./{PYTHON_ENV_NAME}/bin/python"
    _export_pythonpath()
    logging.getLogger("py4j").setLevel(logging.ERROR)
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


def spark_context_or_none(spark: SparkSession) -> SparkContext | None:
    """The SparkContext (for ``statusTracker``), or None under Spark Connect."""
    return None if _is_connect(spark) else spark.sparkContext


def ship_engine(spark: SparkSession) -> None:
    """Make ``engine`` importable by executors that do not share this machine's files.

    Local mode needs nothing (workers inherit ``PYTHONPATH``); a cluster or Spark Connect gets a zip
    of the package (``addPyFile`` / ``addArtifacts``), built once per process.
    """
    master = "remote" if _is_connect(spark) else str(spark.sparkContext.master)
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
    """``engine/`` (sources only, no ``__pycache__``) as a zip, built once per process."""
    import zipfile

    archive = Path(tempfile.gettempdir()) / f"kpl-engine-{os.getpid()}.zip"
    if not archive.exists():
        root = Path(__file__).resolve().parents[2]
        temp = archive.with_suffix(".tmp")
        with zipfile.ZipFile(temp, "w", zipfile.ZIP_DEFLATED) as bundle:
            for path in sorted((root / "engine").rglob("*.py")):
                bundle.write(path, path.relative_to(root).as_posix())
        temp.replace(archive)
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


SQL_CONF = {
    "spark.sql.session.timeZone": "UTC",  # windows and timestamps do not depend on the host
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    # 100k-row Arrow batches: fewer round trips, and engine.producer.arrow's compiled kernel (>= 20k keys)
    "spark.sql.execution.arrow.maxRecordsPerBatch": "100000",
    # adaptive execution may coalesce the small shuffles behind the job's cached results too
    "spark.sql.optimizer.canChangeCachedPlanOutputPartitioning": "true",
}


def _conf(options: SessionOptions, mode: str) -> dict[str, str]:
    conf = {
        "spark.ui.enabled": str(options.ui).lower(),
        "spark.ui.showConsoleProgress": "false",  # the progress bar would go to stderr
        "spark.log.level": "ERROR",
        **SQL_CONF,
    }
    if mode == "local":  # a cluster keeps its own default (adaptive execution coalesces small shuffles)
        conf["spark.sql.shuffle.partitions"] = str(options.shuffle_partitions)
    if mode in ("local", "cluster"):
        conf["spark.master"] = options.master or DEFAULT_MASTER
    if options.python_env is not None and mode != "local":
        conf["spark.archives"] = f"{options.python_env}#{PYTHON_ENV_NAME}"
    conf.update(dict(options.extra))
    if mode == "local":
        conf["spark.driver.memory"] = options.driver_memory
        conf["spark.driver.host"] = "127.0.0.1"
        conf["spark.driver.bindAddress"] = "127.0.0.1"
    return conf


CONNECT_DEFAULT_PORT = 15002
CONNECT_TIMEOUT_S = 10.0
CONNECT_RETRIES = 3  # pyspark's own default retries for about 10 minutes before giving up


class SparkUnreachableError(EngineError):
    """The Spark Connect server named by ``SPARK_REMOTE`` does not answer."""


def connect_address(remote: str) -> tuple[str, int]:
    """``sc://host:port/;token=...`` -> ``(host, port)`` (port 15002 when not given).

    >>> connect_address("sc://spark.example:15010/;user_id=ana")
    ('spark.example', 15010)
    """
    import re

    match = re.fullmatch(r"sc://(\[[^\]]+\]|[^:/;\[\]]+)(?::(\d{1,5}))?(?:[/;].*)?", remote.strip(), re.DOTALL)
    if match is None:
        raise SparkUnreachableError(f"SPARK_REMOTE: give sc://host[:port], got {remote[:80]!r}")
    return match.group(1).strip("[]"), int(match.group(2) or CONNECT_DEFAULT_PORT)


def check_reachable(remote: str, timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """One TCP connection to the Connect server, bounded by ``timeout_s``: fail in seconds, not minutes."""
    import socket

    host, port = connect_address(remote)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise SparkUnreachableError(f"Spark Connect server {host}:{port} (SPARK_REMOTE) does not answer "
                                    f"({reason}); start it with sbin/start-connect-server.sh or fix "
                                    "SPARK_REMOTE") from None


def _remote_session(options: SessionOptions) -> SparkSession:
    from pyspark.sql import SparkSession
    from pyspark.sql.connect.client.retries import DefaultPolicy

    remote = os.environ["SPARK_REMOTE"]
    check_reachable(remote)
    builder = SparkSession.builder.remote(remote).appName(options.app_name)
    spark = builder.getOrCreate()
    client = getattr(spark, "client", None)
    if client is not None:  # a server that dies mid-run fails the run in seconds too
        client.set_retry_policies([DefaultPolicy(max_retries=CONNECT_RETRIES, max_backoff=5_000)])
    for key, value in (*SQL_CONF.items(), *options.extra):
        try:
            spark.conf.set(key, value)
        except Exception as exc:  # noqa: BLE001 - e.g. a static setting a Connect session cannot change
            from engine.spark.config import LoadInputError
            from engine.spark.io import short

            raise LoadInputError(f"conf {key}: not settable in a Spark Connect session ({short(exc)})") \
                from None
    if options.python_env is not None:
        spark.addArtifacts(f"{options.python_env}#{PYTHON_ENV_NAME}", archive=True)
        spark.conf.set("spark.sql.execution.pyspark.python", f"{PYTHON_ENV_NAME}/bin/python")
    return spark


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


class SessionStarter:
    """Starts a SparkSession in a background thread (``get_session(options)``); a caller polls ``done`` and
    reads ``session`` or ``error`` (the dashboard shows progress meanwhile)."""

    def __init__(self, options: SessionOptions) -> None:
        self.began = time.monotonic()
        self.seconds: float | None = None
        self.session: Any = None
        self.error: BaseException | None = None
        threading.Thread(target=self._work, args=(options,), name="kpl-spark-start", daemon=True).start()

    def _work(self, options: SessionOptions) -> None:
        try:
            self.session = get_session(options)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            self.error = exc
        finally:
            self.seconds = time.monotonic() - self.began

    @property
    def done(self) -> bool:
        return self.seconds is not None
