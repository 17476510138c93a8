"""The servers the browser benchmark measures: the working tree's, and a git revision's as the named baseline.

``streamlit_server(log, root)`` runs ``streamlit run app.py`` in ``root`` with this interpreter
(``sys.executable``) on a free loopback port, and stops it by its PID when the ``with`` block ends (also on an
error or Ctrl-C).

``python -m bench browser --baseline REV`` resolves ``REV`` (``git rev-parse``), checks that commit out as a
detached worktree in ``<repo's parent>/.bench-baseline-<sha[:12]>`` (beside the repo, so the baseline's
``../shared`` is the repo's), serves it with a second server (same interpreter, same flags, the worktree as its
working directory) and removes the worktree at the end (``git worktree remove --force``) unless
``--keep-baseline``.  A worktree left there at the same commit is reused.

    .venv/bin/python -m bench browser_baseline HEAD~3   # which commit, and where its worktree goes
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

GIT_TIMEOUT_S = 120
HEALTH_TIMEOUT_S = 60
STOP_TIMEOUT_S = 20
WORKTREE_PREFIX = ".bench-baseline-"


def _git(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=GIT_TIMEOUT_S,
                          check=False)


def resolve_rev(rev: str, repo: Path) -> str:
    """The full sha of the commit ``rev`` names in ``repo``; a ValueError naming ``rev`` when it names none."""
    if not rev.strip() or rev.startswith("-"):
        raise ValueError(f"--baseline: {rev!r} is not a git revision")
    done = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    sha = done.stdout.strip()
    if done.returncode != 0 or len(sha) != 40:
        raise ValueError(f"--baseline: {rev!r} names no commit in {repo}")
    return sha


def subject(repo: Path, sha: str) -> str:
    """``<short sha> <subject line>`` of a commit, cut to 100 characters."""
    line = _git(repo, "log", "-1", "--format=%h %s", sha).stdout.strip() or sha[:12]
    return line if len(line) <= 100 else line[:97] + "..."


def describe_tree(repo: Path) -> str:
    """The working tree the current server serves: its HEAD and how many paths differ from it."""
    head = _git(repo, "rev-parse", "--short=12", "HEAD").stdout.strip() or "no HEAD"
    changed = len(_git(repo, "status", "--porcelain").stdout.splitlines())
    return f"HEAD {head}" + (f" + {changed} changed or new paths" if changed else ", clean")


def worktree_path(repo: Path, sha: str) -> Path:
    """Where the baseline of ``sha`` is checked out: beside ``repo``, named after the commit."""
    return repo.parent / f"{WORKTREE_PREFIX}{sha[:12]}"


def _registered(repo: Path, path: Path) -> bool:
    """Whether ``path`` is one of ``repo``'s worktrees (``git worktree list --porcelain``)."""
    listed = _git(repo, "worktree", "list", "--porcelain").stdout.splitlines()
    return f"worktree {path.resolve()}" in listed


def _checked_out(path: Path) -> str | None:
    done = _git(path, "rev-parse", "HEAD")
    return done.stdout.strip() if done.returncode == 0 else None


def add_worktree(repo: Path, sha: str) -> tuple[Path, bool]:
    """The worktree of ``sha`` beside ``repo`` and whether it was made now (False: one there is reused)."""
    path = worktree_path(repo, sha)
    if path.exists():
        if _registered(repo, path) and _checked_out(path) == sha:
            return path, False
        raise RuntimeError(f"{path} exists but is not a worktree of {repo} at {sha[:12]}: remove it first")
    done = _git(repo, "worktree", "add", "--detach", str(path), sha)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit code {done.returncode}"]
        raise RuntimeError(f"git worktree add {path} {sha[:12]}: {lines[-1]}")
    return path, True


def remove_worktree(repo: Path, path: Path) -> str | None:
    """``git worktree remove --force``; the error as one line (None when removed), never an exception."""
    try:
        done = _git(repo, "worktree", "remove", "--force", str(path))
    except (OSError, subprocess.SubprocessError) as exc:
        return f"git worktree remove {path}: {exc}"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or [f"exit code {done.returncode}"]
        return f"git worktree remove {path}: {lines[-1]}"
    return None


@contextmanager
def baseline_worktree(repo: Path, sha: str, keep: bool = False) -> Iterator[Path]:
    """The worktree of ``sha`` for the ``with`` block; removed after it (also on error or Ctrl-C) unless ``keep``."""
    path, made = add_worktree(repo, sha)
    print(f"baseline {sha[:12]}: worktree {path} ({'made' if made else 'reused'})", file=sys.stderr, flush=True)
    try:
        yield path
    finally:
        if keep:
            print(f"baseline worktree kept: {path}", file=sys.stderr, flush=True)
        else:
            problem = remove_worktree(repo, path)
            if problem:
                print(f"browser benchmark: {problem}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------- the servers


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit exited with code {proc.returncode}; see {log}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            pass
        time.sleep(0.3)
    raise RuntimeError(f"streamlit was not healthy within {HEALTH_TIMEOUT_S} s; see {log}")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server this benchmark started (by its PID): terminate, then kill if it lingers."""
    if proc.poll() is not None:
        return
    proc.terminate()
    try:
        proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=STOP_TIMEOUT_S)


def server_command(port: int) -> list[str]:
    """``streamlit run app.py`` on ``port`` of the loopback, with this interpreter (the baseline's too)."""
    return [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
            "--server.port", str(port), "--server.address", "127.0.0.1",
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]


@contextmanager
def streamlit_server(log: Path, root: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``streamlit run app.py`` in ``root`` on a free loopback port, stopped on exit (also on error, Ctrl-C)."""
    port = free_port()
    with log.open("w") as out:
        proc = subprocess.Popen(server_command(port), cwd=root, stdout=out, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(url, proc, log)
            yield url, proc
        finally:
            _stop(proc)


def main(argv: list[str]) -> None:
    """``python -m bench browser_baseline [REV]``: the commit REV (default HEAD) names and its worktree's path."""
    repo = Path(__file__).resolve().parent.parent
    rev = argv[0] if argv else "HEAD"
    try:
        sha = resolve_rev(rev, repo)
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    path = worktree_path(repo, sha)
    print(f"{rev}: {subject(repo, sha)}\nworktree: {path} ({'present' if path.exists() else 'absent'})")
