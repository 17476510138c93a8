"""The partition feature: the Partition Log page's inputs, the Replicas page's placer choice and replication
section, the Producer page's transactions, the lazy tabs and expanders of the three pages, and the cached
producer, log and placement work (Producer, Partition Log, Replicas)."""
