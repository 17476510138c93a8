"""Kafka's client-side ``ConsumerPartitionAssignor`` implementations, one module per class."""
