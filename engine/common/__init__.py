"""``clients/common``: what Kafka's clients and brokers share (``ConfigDef``: how a config class declares its
configs once, and how their values are parsed and validated)."""
