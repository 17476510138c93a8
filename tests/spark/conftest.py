"""Real Spark clusters for the load pipeline's tests, one session-scoped fixture per kind.

* ``standalone_cluster``: a standalone master and one worker (2 cores), started from the installed
  pyspark's own ``bin/spark-class`` on loopback with free ports;
* ``connect_server``: a Spark Connect server (``spark-submit --class ...SparkConnectServer``; the
  ``spark-connect`` jar ships in pyspark's ``jars/``), ``local[2]`` behind it;
* ``executor_env``: a packed virtualenv (``engine.spark.environment``, venv-pack) with numpy and pyarrow
  but *no numba*, for executors that must run from it.

Local runs use the ``spark`` fixture of ``tests/conftest.py``.  Every process is stopped by its PID in
teardown.  Tests using these are marked ``spark``; ``pytest -m "not spark"`` skips them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from clusters import Cluster, free_port, spark_env, spark_home, start, stop, wait_for


@pytest.fixture(scope="session")
def standalone_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """``spark://127.0.0.1:<port>``: a master and one 2-core worker, real JVM processes."""
    home = spark_home()
    root = tmp_path_factory.mktemp("standalone")
    env = spark_env(home)
    spark_class = str(home / "bin" / "spark-class")
    port = free_port()
    master = start([spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                     "--port", str(port), "--webui-port", str(free_port())], root / "master.log", env)
    wait_for(root / "master.log", "I have been elected leader", [master])
    url = f"spark://127.0.0.1:{port}"
    work = root / "work"
    work.mkdir()
    worker = start([spark_class, "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "2",
                     "--memory", "2g", "--work-dir", str(work), "--webui-port", str(free_port()), url],
                    root / "worker.log", env)
    wait_for(root / "worker.log", "Successfully registered with master", [master, worker])
    yield Cluster(url, work)
    stop(worker)
    stop(master)


@pytest.fixture(scope="session")
def connect_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``sc://127.0.0.1:<port>``: a Spark Connect server (local[2] behind it), a real JVM process."""
    home = spark_home()
    jars = sorted((home / "jars").glob("spark-connect_*.jar"))
    assert jars, f"no spark-connect jar in {home / 'jars'}: this pyspark does not ship the Connect server"
    root = tmp_path_factory.mktemp("connect")
    port = free_port()
    command = [str(home / "bin" / "spark-submit"), "--class", "org.apache.spark.sql.connect.service.SparkConnectServer",
               "--master", "local[2]", "--driver-memory", "1g", "--jars", str(jars[0])]
    for key, value in {"spark.connect.grpc.binding.address": "127.0.0.1", "spark.connect.grpc.binding.port": port,
                       "spark.ui.enabled": "false", "spark.driver.host": "127.0.0.1",
                       "spark.driver.bindAddress": "127.0.0.1", "spark.sql.shuffle.partitions": "2"}.items():
        command += ["--conf", f"{key}={value}"]
    server = start(command, root / "connect.log", spark_env(home))
    wait_for(root / "connect.log", "Spark Connect server started", [server])
    yield f"sc://127.0.0.1:{port}"
    stop(server)


@pytest.fixture(scope="session")
def executor_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The executors' environment as the README builds it: ``engine.spark.environment`` (numpy, pyarrow,
    no numba), packed by venv-pack."""
    pytest.importorskip("venv_pack", reason="venv-pack is needed to pack the executors' environment")
    from engine.spark.environment import pack_executor_env

    return pack_executor_env(tmp_path_factory.mktemp("executor-env") / "kpl-env.zip")
