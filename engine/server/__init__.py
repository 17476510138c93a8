"""Broker-side machinery (Kafka's ``server`` and ``server-common`` modules): the purgatory timer and
replica placement."""
