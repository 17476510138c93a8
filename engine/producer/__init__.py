"""The producer client (``org.apache.kafka.clients.producer``) and librdkafka's: key hashing, partitioners,
null-key partitioning over time, key samples."""
