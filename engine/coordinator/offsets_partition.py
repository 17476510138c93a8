"""Which ``__consumer_offsets`` partition (and so which broker) coordinates a group.

``GroupCoordinatorService.partitionFor``: ``Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from engine.errors import LimitError
from engine.java.strings import string_hash_code, utils_abs
from engine.producer.cli import _require_dict, _require_list, _short
from engine.producer.murmur2 import HashInputError, check_partition_count

if TYPE_CHECKING:  # pragma: no cover
    pass


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
    """``python -m engine coordinator``: Java hashCode and ``__consumer_offsets`` partition per group."""
    doc = _require_dict(payload, "coordinator")
    ids = _require_list(doc, "group_ids", MAX_CLI_GROUP_IDS)
    n = check_partition_count(doc.get("offsets_partitions", DEFAULT_OFFSETS_PARTITIONS), "offsets_partitions")
    results = []
    for i, group_id in enumerate(ids):
        if not isinstance(group_id, str):
            raise HashInputError(f"group_ids[{i}]: expected a string, got {_short(group_id)}")
        if len(group_id) > MAX_GROUP_ID_CHARS:
            raise LimitError(f"group_ids[{i}]: longer than {MAX_GROUP_ID_CHARS} characters")
        h = string_hash_code(group_id)
        results.append({"group_id": group_id, "java_hashcode": h, "partition": utils_abs(h) % n})
    return {"results": results}
