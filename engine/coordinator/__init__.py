"""The group coordinator (Kafka's ``group-coordinator`` module): KIP-848 server-side assignors and the
``__consumer_offsets`` partition that owns a group."""
