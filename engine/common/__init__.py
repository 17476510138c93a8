"""``clients/common``: what Kafka's clients and brokers share (``ConfigDef``'s parsing and validators)."""
