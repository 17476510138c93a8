"""The partition feature: the Partition Log page's inputs, the Replicas page's placer choice, and the cached
producer, log and placement work (Producer, Partition Log, Replicas)."""
