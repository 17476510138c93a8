"""Kafka's ``metadata`` module: what a KRaft controller decides (``placement/``: where a new topic's replicas go)."""
