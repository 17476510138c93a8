"""Record states of a share partition and the acknowledge types that move them (KIP-932).

A record moves only AVAILABLE -> ACQUIRED (acquire) and ACQUIRED -> AVAILABLE / ACKNOWLEDGED / ARCHIVED;
ACKNOWLEDGED and ARCHIVED are final.  ``RecordState.validate_transition`` refuses every other move with the
words of Kafka's ``RecordState.validateTransition``.  An acknowledgement names the state it asks for (Kafka's
``AcknowledgeType``: ACCEPT, RELEASE, REJECT; the consumer sends GAP for offsets the log no longer holds).

>>> ACK_TARGETS["ACCEPT"], ACK_TARGETS["RELEASE"], ACK_TARGETS["GAP"]
(<RecordState.ACKNOWLEDGED: 'ACKNOWLEDGED'>, <RecordState.AVAILABLE: 'AVAILABLE'>, <RecordState.ARCHIVED: 'ARCHIVED'>)
>>> RecordState.ARCHIVED.is_final, RecordState.ACQUIRED.is_final
(True, False)
>>> RecordState.AVAILABLE.validate_transition(RecordState.ACQUIRED)
<RecordState.ACQUIRED: 'ACQUIRED'>
>>> RecordState.AVAILABLE.validate_transition(RecordState.ARCHIVED)
Traceback (most recent call last):
...
engine.share.record_state.InvalidTransition: The state can only be transitioned to ACQUIRED from AVAILABLE
"""

from __future__ import annotations

from enum import Enum
from typing import Final


class InvalidTransition(Exception):
    """A move ``validate_transition`` refuses (Kafka's ``IllegalStateException``); the caller treats the
    record as not updated, as Kafka's ``InFlightState.tryUpdateState`` does."""


class RecordState(Enum):
    AVAILABLE = "AVAILABLE"
    ACQUIRED = "ACQUIRED"
    ACKNOWLEDGED = "ACKNOWLEDGED"
    ARCHIVED = "ARCHIVED"

    @property
    def is_final(self) -> bool:
        return self is RecordState.ACKNOWLEDGED or self is RecordState.ARCHIVED

    def validate_transition(self, new: RecordState) -> RecordState:
        """``new`` when the move is allowed, else ``InvalidTransition`` with Kafka's message."""
        if self is new:
            raise InvalidTransition("The state transition is invalid as the new state is the same as the "
                                    "current state")
        if self.is_final:
            raise InvalidTransition(f"The state transition is invalid from the current state: {self.value}")
        if self is RecordState.AVAILABLE and new is not RecordState.ACQUIRED:
            raise InvalidTransition("The state can only be transitioned to ACQUIRED from AVAILABLE")
        return new


ACK_TARGETS: Final[dict[str, RecordState]] = {
    "ACCEPT": RecordState.ACKNOWLEDGED,
    "RELEASE": RecordState.AVAILABLE,
    "REJECT": RecordState.ARCHIVED,
    "GAP": RecordState.ARCHIVED,
}
