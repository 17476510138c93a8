"""``org.apache.kafka.metadata.placement``: ``StripedReplicaPlacer`` (``striped.py``)."""
