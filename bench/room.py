"""``python -m bench room``: a bigger room, several dashboard servers behind nginx with sticky sessions.

    .venv/bin/python -m bench room --servers 2 --port 8080 --address 0.0.0.0   # serve (Ctrl-C stops all)
    .venv/bin/python -m bench room --check --servers 2 --sessions 20             # try it on loopback

One Streamlit server uses one core for its pages (Python's interpreter lock); N servers on consecutive ports
use N.  nginx (Debian's ``apt-get install nginx``) listens on ``--port`` and sends each person to one server
for their whole visit: the websocket of a session, its uploads and its media must reach the server that holds
the session, so the upstream is hashed on the client's address (``X-Forwarded-For`` when a proxy in front
sets it, else the connection's address; ``consistent``: adding a server moves few people).  All servers share
one ``server.cookieSecret`` (an upload's XSRF cookie signed by one server is accepted by any).

``--check`` starts it all on free loopback ports, opens ``--sessions`` websocket sessions through nginx at once
(each with its own ``X-Forwarded-For``, as people on their own laptops), checks every page finished without an
exception and that every server took sessions, and prints p95 and each server's CPU seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUN_ALL_ARGS = ["--check"]
NGINX_CONF = """\
worker_processes 1;
pid {tmp}/nginx.pid;
error_log {tmp}/error.log;
events {{ worker_connections 1024; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/body; proxy_temp_path {tmp}/proxy;
  fastcgi_temp_path {tmp}/fastcgi; uwsgi_temp_path {tmp}/uwsgi; scgi_temp_path {tmp}/scgi;
  client_max_body_size 210m;  # server.maxUploadSize is 200 MB
  map $http_x_forwarded_for $kpl_client {{ "" $remote_addr; default $http_x_forwarded_for; }}
  map $http_upgrade $kpl_connection {{ default upgrade; "" close; }}
  upstream kpl {{
    hash $kpl_client consistent;
{servers}
  }}
  server {{
    listen {address}:{port};
    location / {{
      proxy_pass http://kpl;
      proxy_http_version 1.1;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $kpl_connection;
      proxy_set_header Host $http_host;
      proxy_read_timeout 1d;
      proxy_buffering off;
    }}
  }}
}}
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_config(tmp: Path, address: str, port: int, backends: list[int]) -> str:
    servers = "\n".join(f"    server 127.0.0.1:{p};" for p in backends)
    return NGINX_CONF.format(tmp=tmp, address=address, port=port, servers=servers)


def start(servers: int, address: str, port: int, first_backend: int | None, tmp: Path) -> list[subprocess.Popen]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise SystemExit("nginx not found: apt-get install nginx (Debian's package)")
    backends = [first_backend + i for i in range(servers)] if first_backend else [free_port() for _ in range(servers)]
    secret = secrets.token_hex(32)
    procs = [subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
                               "--server.port", str(p), "--server.address", "127.0.0.1",
                               "--browser.gatherUsageStats", "false"],
                              cwd=REPO, env={**os.environ, "STREAMLIT_SERVER_COOKIE_SECRET": secret},
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for p in backends]
    (tmp / "nginx.conf").write_text(nginx_config(tmp, address, port, backends), encoding="utf-8")
    procs.append(subprocess.Popen([nginx, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"]))
    for p in backends + [port]:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{p}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
    return procs


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


async def session(url: str, pages: str, client: str) -> list[tuple[float, str | None]]:
    """One person: ``pages`` (comma-separated) opened one after the other on one websocket; for each, the
    seconds from its request (the first: from connecting) to the server's ``script_finished``, and the first
    exception shown."""
    import websockets

    origin = url.replace("ws://", "http://").split("/_stcore")[0]
    start = time.perf_counter()
    found = []
    async with websockets.connect(url, subprotocols=["streamlit"], max_size=None, ping_interval=None, origin=origin,
                                  additional_headers={"X-Forwarded-For": client}) as ws:
        for page in pages.split(","):
            found.append(await _open(ws, page, start))
            start = time.perf_counter()
    return found


async def _open(ws: object, page: str, start: float) -> tuple[float, str | None]:
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    name, _, query = page.partition("?")
    msg = BackMsg()
    msg.rerun_script.query_string, msg.rerun_script.page_name, msg.rerun_script.page_script_hash = query, name, ""
    await ws.send(msg.SerializeToString())  # type: ignore[attr-defined]
    error = None
    while True:
        fwd = ForwardMsg()
        fwd.ParseFromString(await asyncio.wait_for(ws.recv(), timeout=300))  # type: ignore[attr-defined]
        kind = fwd.WhichOneof("type")
        if kind == "delta" and fwd.delta.HasField("new_element") \
                and fwd.delta.new_element.WhichOneof("type") == "exception":
            error = error or fwd.delta.new_element.exception.message
        if kind == "script_finished":
            return time.perf_counter() - start, error


def check(servers: int, sessions: int, page: str) -> dict[str, object]:
    """Serve on loopback, open ``sessions`` at once through nginx, each opening ``page`` (comma-separated:
    in turn); the figures over every page opened (raises on a failed session)."""
    with tempfile.TemporaryDirectory(prefix="kpl-room-") as tmp:
        port = free_port()
        procs = start(servers, "127.0.0.1", port, None, Path(tmp))
        try:
            url = f"ws://127.0.0.1:{port}/_stcore/stream"

            async def room(n: int, offset: int) -> list[tuple[float, str | None]]:
                addresses = [f"10.0.{(offset + i) // 250}.{(offset + i) % 250 + 1}" for i in range(n)]
                people = await asyncio.gather(*(session(url, page, address) for address in addresses))
                return [visit for person in people for visit in person]

            asyncio.run(room(servers * 4, 10_000))  # every server warm (its imports and caches), as in a room
            before = [cpu_seconds(p.pid) for p in procs[:servers]]
            start_time = time.perf_counter()
            results = asyncio.run(room(sessions, 0))
            wall = time.perf_counter() - start_time
            used = [cpu_seconds(p.pid) - b for p, b in zip(procs[:servers], before, strict=True)]
        finally:
            stop(procs)
    errors = [e for _, e in results if e]
    times = sorted(t for t, _ in results)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return {"servers": servers, "sessions": sessions, "wall": wall, "p95": p95, "errors": errors, "cpu": used}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench room")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--address", default="127.0.0.1")
    parser.add_argument("--first-backend", type=int, default=8601, help="the servers' ports: this and the next")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--page", default="Assignments?preset=large,Rebalance?preset=large",
                        help="pages each session opens in turn, comma-separated (ws_sessions.py's default)")
    args = parser.parse_args(argv)
    if args.check:
        r = check(args.servers, args.sessions, args.page)
        cpu = ", ".join(f"{c:.1f}" for c in r["cpu"])  # type: ignore[attr-defined]
        print(f"{r['sessions']} sessions through nginx to {r['servers']} servers: wall {r['wall']:.1f} s, "
              f"p95 {r['p95']:.2f} s, errors {len(r['errors'])}, CPU s per server: {cpu}")  # type: ignore[arg-type]
        return
    with tempfile.TemporaryDirectory(prefix="kpl-room-") as tmp:
        procs = start(args.servers, args.address, args.port, args.first_backend, Path(tmp))
        print(f"serving the room on http://{args.address}:{args.port} ({args.servers} servers); Ctrl-C stops")
        try:
            procs[-1].wait()
        except KeyboardInterrupt:
            pass
        finally:
            stop(procs)


def stop(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        p.send_signal(signal.SIGTERM)
    for p in procs:
        p.wait(timeout=30)
