"""The consumer client (``org.apache.kafka.clients.consumer``): its partition assignors, the classic group
protocol replayed over rebalances, membership, pauses and metrics."""
