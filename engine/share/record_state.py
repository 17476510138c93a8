"""Record states of a share partition and the acknowledge types that move them (KIP-932).

A record moves only AVAILABLE -> ACQUIRED (acquire) and ACQUIRED -> AVAILABLE / ACKNOWLEDGED / ARCHIVED;
ACKNOWLEDGED and ARCHIVED are final.  An acknowledgement names the state it asks for (Kafka's
``AcknowledgeType``: ACCEPT, RELEASE, REJECT; the consumer sends GAP for offsets the log no longer holds).

>>> ACK_TARGETS["ACCEPT"], ACK_TARGETS["RELEASE"], ACK_TARGETS["GAP"]
(<RecordState.ACKNOWLEDGED: 'ACKNOWLEDGED'>, <RecordState.AVAILABLE: 'AVAILABLE'>, <RecordState.ARCHIVED: 'ARCHIVED'>)
>>> RecordState.ARCHIVED.is_final, RecordState.ACQUIRED.is_final
(True, False)
"""

from __future__ import annotations

from enum import Enum
from typing import Final


class RecordState(Enum):
    AVAILABLE = "AVAILABLE"
    ACQUIRED = "ACQUIRED"
    ACKNOWLEDGED = "ACKNOWLEDGED"
    ARCHIVED = "ARCHIVED"

    @property
    def is_final(self) -> bool:
        return self is RecordState.ACKNOWLEDGED or self is RecordState.ARCHIVED


ACK_TARGETS: Final[dict[str, RecordState]] = {
    "ACCEPT": RecordState.ACKNOWLEDGED,
    "RELEASE": RecordState.AVAILABLE,
    "REJECT": RecordState.ARCHIVED,
    "GAP": RecordState.ARCHIVED,
}
