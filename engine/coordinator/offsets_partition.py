"""Which ``__consumer_offsets`` partition (and so which broker) coordinates a group.

``GroupCoordinatorService.partitionFor``: ``Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions``.
"""

from __future__ import annotations

from typing import Any, Final

from engine.cost import CLI_CEILING, admit, estimate_coordinator
from engine.cost.computations import utf16_length
from engine.errors import LimitError
from engine.java.strings import string_hash_code, utils_abs
from engine.producer.cli import _require_dict, _require_list, _short
from engine.producer.murmur2 import HashInputError, check_partition_count

DEFAULT_OFFSETS_PARTITIONS: Final = 50  # offsets.topic.num.partitions default
MAX_CLI_GROUP_IDS: Final = 100_000
MAX_GROUP_ID_CHARS: Final = 10_000


def coordinator_partition(group_id: str, offsets_partitions: int = DEFAULT_OFFSETS_PARTITIONS) -> int:
    """``__consumer_offsets`` partition of a group: ``Utils.abs(groupId.hashCode()) % n``.

    ``coordinator_partition("my-group") == 12`` (hashCode ``-1906497762``).
    """
    n = check_partition_count(offsets_partitions, "offsets_partitions")
    return utils_abs(string_hash_code(group_id)) % n


def cli_coordinator(payload: Any) -> dict[str, Any]:
    """``python -m engine coordinator``: Java hashCode and ``__consumer_offsets`` partition per group.

    Any string is a group id, lone surrogates included: Java hashes its UTF-16 units, and so does this
    (``"\\ud800"`` hashes to 55296, partition 46 of 50).
    """
    doc = _require_dict(payload, "coordinator")
    ids = [_group_id(i, g) for i, g in enumerate(_require_list(doc, "group_ids", MAX_CLI_GROUP_IDS))]
    n = check_partition_count(doc.get("offsets_partitions", DEFAULT_OFFSETS_PARTITIONS), "offsets_partitions")
    admit(estimate_coordinator(len(ids), sum(map(utf16_length, ids))), CLI_CEILING, "coordinator")
    results = []
    for group_id in ids:
        h = string_hash_code(group_id)
        results.append({"group_id": group_id, "java_hashcode": h, "partition": utils_abs(h) % n})
    return {"results": results}


def _group_id(index: int, value: Any) -> str:
    if not isinstance(value, str):
        raise HashInputError(f"group_ids[{index}]: expected a string, got {_short(value)}")
    if len(value) > MAX_GROUP_ID_CHARS:
        raise LimitError(f"group_ids[{index}]: longer than {MAX_GROUP_ID_CHARS} characters")
    return value
