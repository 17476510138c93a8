"""Live, read-only reads of a cluster through confluent-kafka's AdminClient (Kafka's ``clients/admin``).

``connection`` (bootstrap servers, bounded timeout, SASL/SSL settings that are never kept),
``client`` (the AdminClient and Kafka's errors as one line), ``metadata`` (topics, partitions,
replicas, broker racks), ``groups`` (list, describe, committed offsets and lag), ``live`` (one import),
``cli`` (``python -m engine import``).  The results are ``engine.tools.records`` structures, turned
into a scenario by ``engine.tools.to_scenario`` like a paste.
"""
