"""Short labels for member ids, for charts: the full id stays on hover and in tables.

A classic-protocol coordinator names a dynamic member ``client.id + "-" + UUID`` (``ClassicGroup`` /
``GroupMetadata.generateMemberId``: 36 more characters), so a real group's ids are 60 characters long and wreck
a chart's axis.  The label is the ``client.id`` part, with the UUID's first characters added only where two
members share a client.id; any other id longer than ``MAX_LABEL`` is cut in the middle.

Worked example (asserted by ``tests/test_worked_examples.py``)::

    >>> short_labels(["consumer-orders-1-87751d4c-a850-4e2c-84dc-da6a797d76de", "C1"])
    {'consumer-orders-1-87751d4c-a850-4e2c-84dc-da6a797d76de': 'consumer-orders-1', 'C1': 'C1'}
    >>> list(short_labels(["app-87751d4c-a850-4e2c-84dc-da6a797d76de",
    ...                    "app-61b339ff-2481-44e5-998b-88dbaa99e079"]).values())
    ['app-8775', 'app-61b3']
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

MAX_LABEL = 32  # a client.id such as consumer-orders-service-1 fits
_UUID_TAIL = re.compile(r"^(?P<client>.+)-(?P<uuid>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$")


def _cut(text: str) -> str:
    if len(text) <= MAX_LABEL:
        return text
    keep = (MAX_LABEL - 1) // 2
    return f"{text[:keep]}…{text[-keep:]}"


def short_labels(member_ids: Sequence[str]) -> dict[str, str]:
    """member id -> a distinct short label (the id itself when it is short and not ``client.id-UUID``)."""
    parts = {m: _UUID_TAIL.match(m) for m in member_ids}
    clients = Counter(p.group("client") for p in parts.values() if p)
    labels: dict[str, str] = {}
    for m, p in parts.items():
        if p is None:
            labels[m] = _cut(m)
            continue
        client, uuid = p.group("client"), p.group("uuid").replace("-", "")
        labels[m] = _cut(client) if clients[client] == 1 else f"{_cut(client)}-{uuid[:4]}"
    width = 4
    while len(set(labels.values())) < len(labels) and width < 32:  # the same short prefix: widen, then give up
        width += 4
        for m, p in parts.items():
            if p is not None and clients[p.group("client")] > 1:
                labels[m] = f"{_cut(p.group('client'))}-{p.group('uuid').replace('-', '')[:width]}"
    if len(set(labels.values())) < len(labels):
        return {m: m for m in member_ids}  # never two members under one label
    return labels
