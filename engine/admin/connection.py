"""How to reach a cluster: bootstrap servers, a bounded timeout, SASL/SSL settings that are never kept.

``Connection`` holds what the user typed for one import and builds the librdkafka configuration of
the AdminClient from it.  Only an allow-list of security settings is accepted; secrets
(``sasl.password``, ``ssl.key.password``, ``sasl.oauthbearer.client.secret``) are masked in
``repr``, in every error message (``redact``), and are never part of a report, a scenario or a URL.
librdkafka's own logging is switched off, so nothing it prints can carry them either.

Worked example (asserted in tests/engine/admin/test_import_admin.py)::

    >>> c = Connection.parse("kafka-1:9092", 5, {"security.protocol": "SASL_SSL", "sasl.mechanism": "PLAIN",
    ...                                           "sasl.password": "s3cret"})
    >>> c.redact("login with s3cret failed"), "s3cret" in repr(c)
    ('login with *** failed', False)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError

SECRET_KEYS = frozenset({"sasl.password", "ssl.key.password", "sasl.oauthbearer.client.secret"})
ALLOWED_KEYS = frozenset(
    {
        "security.protocol",
        "sasl.mechanism",
        "sasl.username",
        "sasl.password",
        "ssl.ca.location",
        "ssl.certificate.location",
        "ssl.key.location",
        "ssl.key.password",
        "ssl.endpoint.identification.algorithm",
        "sasl.oauthbearer.method",
        "sasl.oauthbearer.client.id",
        "sasl.oauthbearer.client.secret",
        "sasl.oauthbearer.token.endpoint.url",
        "sasl.oauthbearer.scope",
        "client.id",
    }
)
PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
MECHANISMS = (
    "PLAIN",
    "SCRAM-SHA-256",
    "SCRAM-SHA-512",
    "OAUTHBEARER",
)  # the wheel's librdkafka has no GSSAPI
MIN_TIMEOUT_S, MAX_TIMEOUT_S = 0.5, 120.0
_SERVER = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d{1,5})$")


class ClusterError(EngineError):
    """Reaching or reading the cluster failed: one line, secrets masked."""


def parse_bootstrap(text: str) -> str:
    """``host:port[,host:port...]``, checked; returned without spaces."""
    servers = [s.strip() for s in text.split(",") if s.strip()]
    if not servers:
        raise ClusterError("bootstrap servers: expected HOST:PORT, got nothing")
    for server in servers:
        m = _SERVER.match(server)
        if m is None or not 1 <= int(m.group(2)) <= 65535:
            raise ClusterError(f"bootstrap servers: expected HOST:PORT, got {server[:80]!r}")
    return ",".join(servers)


def _check_security(security: Mapping[str, str]) -> dict[str, str]:
    out = {}
    for key, value in security.items():
        if key not in ALLOWED_KEYS:
            raise ClusterError(
                f"security setting {key!r} is not supported (use one of {', '.join(sorted(ALLOWED_KEYS))})"
            )
        if value is None or str(value) == "":
            continue
        out[key] = str(value)
    protocol = out.get("security.protocol", "PLAINTEXT").upper()
    if protocol not in PROTOCOLS:
        raise ClusterError(f"security.protocol: must be one of {', '.join(PROTOCOLS)}, got {protocol!r}")
    mechanism = out.get("sasl.mechanism")
    if mechanism is None and protocol.startswith("SASL"):
        raise ClusterError(f"sasl.mechanism: required with {protocol} (one of {', '.join(MECHANISMS)})")
    if mechanism is not None and mechanism.upper() not in MECHANISMS:
        raise ClusterError(f"sasl.mechanism: must be one of {', '.join(MECHANISMS)}, got {mechanism!r}")
    return out


@dataclass(frozen=True, repr=False)
class Connection:
    """One import's way to the cluster (kept only for the duration of the import)."""

    bootstrap: str
    timeout_s: float
    security: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, bootstrap: str, timeout_s: float, security: Mapping[str, str] | None = None) -> Connection:
        if not MIN_TIMEOUT_S <= float(timeout_s) <= MAX_TIMEOUT_S:
            raise ClusterError(
                f"timeout: must be {MIN_TIMEOUT_S}..{MAX_TIMEOUT_S:.0f} seconds, got {timeout_s}"
            )
        return cls(parse_bootstrap(bootstrap), float(timeout_s), _check_security(security or {}))

    def __repr__(self) -> str:
        shown = {k: ("***" if k in SECRET_KEYS else v) for k, v in self.security.items()}
        return f"Connection(bootstrap={self.bootstrap!r}, timeout_s={self.timeout_s}, security={shown})"

    def redact(self, text: str) -> str:
        """``text`` with every secret value replaced by ``***``."""
        for key in SECRET_KEYS:
            secret = self.security.get(key)
            if secret:
                text = text.replace(secret, "***")
        return text

    def client_config(self) -> dict[str, Any]:
        """The AdminClient configuration: bounded timeouts, no logging, the security settings."""
        ms = int(self.timeout_s * 1000)
        config: dict[str, Any] = {
            "bootstrap.servers": self.bootstrap,
            "client.id": "kafka-partition-lab-import",
            "socket.timeout.ms": max(ms, 1000),
            "socket.connection.setup.timeout.ms": max(ms, 1000),
            "reconnect.backoff.max.ms": 1000,
            "log_level": 0,
            "log.connection.close": False,
        }
        config.update(self.security)
        return config


_JAAS_FIELD = re.compile(r'\b(username|password)\s*=\s*"((?:[^"\\]|\\.)*)"')
JAVA_ONLY = {
    "ssl.truststore.location": "ssl.ca.location (a PEM file)",
    "ssl.keystore.location": "ssl.certificate.location and ssl.key.location (PEM files)",
}


def security_from_properties(text: str, where: str) -> dict[str, str]:
    """Security settings of a ``client.properties`` file (``--command-config``): librdkafka's names, and
    Java's ``sasl.jaas.config`` with a username and password (PLAIN/SCRAM login modules)."""
    out: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith(("#", "!")):
            continue
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ClusterError(f"{where} line {number}: expected key=value")
        if key == "sasl.jaas.config":
            out.update({("sasl." + k): re.sub(r"\\(.)", r"\1", v) for k, v in _JAAS_FIELD.findall(value)})
        elif key in JAVA_ONLY:
            raise ClusterError(f"{where} line {number}: {key} is a Java-client setting; use {JAVA_ONLY[key]}")
        elif key not in ALLOWED_KEYS:
            raise ClusterError(f"{where} line {number}: {key!r} is not a supported security setting")
        else:
            out[key] = value
    return out
