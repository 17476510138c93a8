"""Starting and stopping real Spark processes for the tests (used by tests/spark/conftest.py's fixtures)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

STARTUP_TIMEOUT_S = 120


@dataclass(frozen=True)
class Cluster:
    url: str
    work_dir: Path  # the worker's directory: app-*/<executor>/ holds what each executor unpacked


def spark_home() -> Path:
    pyspark = pytest.importorskip("pyspark")
    return Path(pyspark.__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def spark_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("SPARK_REMOTE", "PYSPARK_GATEWAY_PORT")}
    env.update(SPARK_HOME=str(home), SPARK_LOCAL_IP="127.0.0.1", SPARK_DAEMON_MEMORY="512m",
               PYSPARK_PYTHON=sys.executable)
    return env


def start(command: list[str], log: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    with open(log, "wb") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env, stdin=subprocess.DEVNULL)


def wait_for(log: Path, marker: str, processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if marker in log.read_text(errors="replace"):
            return
        if any(p.poll() is not None for p in processes):
            break
        time.sleep(0.5)
    tail = log.read_text(errors="replace")[-2000:]
    for process in processes:
        stop(process)
    pytest.fail(f"{log.name}: {marker!r} not seen within {STARTUP_TIMEOUT_S} s\n{tail}")


def stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM by PID (a worker then stops its executors), SIGKILL if it lingers."""
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
