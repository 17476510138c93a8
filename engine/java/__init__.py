"""The Java behaviours Kafka leaks into its answers: String order and hashCode, HashMap/HashSet iteration
order, ``Uuid``, ``PriorityQueue``.  One small tested model each."""
