"""A bigger room (README "Running a workshop"): two servers behind nginx with sticky sessions, on loopback
(``bench/room.py``): every session finishes its page and both servers take sessions."""

from __future__ import annotations

import concurrent.futures
import shutil
from pathlib import Path

import pytest

from bench.room import check, nginx_config


def test_the_config_hashes_each_client_to_one_server_and_proxies_websockets(tmp_path: Path) -> None:
    text = nginx_config(tmp_path, "0.0.0.0", 8080, [8601, 8602])
    assert "hash $kpl_client consistent;" in text and "server 127.0.0.1:8602;" in text
    assert "proxy_set_header Upgrade $http_upgrade;" in text and "listen 0.0.0.0:8080;" in text


@pytest.mark.skipif(not (shutil.which("nginx") or Path("/usr/sbin/nginx").exists()),
                    reason="nginx not installed (apt-get install nginx)")
def test_two_servers_behind_nginx_share_a_room() -> None:
    with concurrent.futures.ThreadPoolExecutor(1) as pool:  # its own thread: a Playwright worker runs a loop
        result = pool.submit(check, servers=2, sessions=12, page="Assignments?preset=large").result()
    assert result["errors"] == []
    assert all(cpu > 0.05 for cpu in result["cpu"]), result  # type: ignore[attr-defined]
