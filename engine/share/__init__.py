"""Share groups (KIP-932) on the broker side: record delivery inside one share partition.

Kafka keeps this in ``core/src/main/java/kafka/server/share`` (``SharePartition``); the lab follows the
released class the vectors were made from (``../shared/vectors/share_deliver.README.md``) and its defaults
(``settings.py``).  One concept per module:

- ``record_state``: record states, the moves Kafka allows between them, acknowledge types;
- ``settings``: the three broker configs and the group's ``share.auto.offset.reset``, their ranges, released
  defaults and refusals;
- ``in_flight``: ``InFlightState`` / ``InFlightBatch``, the in-flight window's pieces;
- ``acquisition_lock``: acquisition locks and the virtual-time timer that fires them;
- ``share_partition``: ``SharePartition`` (acquire, acknowledge, release on leave, lock expiry, start offset);
- ``case``: one input case (settings, log, events) parsed and refused at the boundary;
- ``replay``: a case driven through ``SharePartition`` into the vectors' steps;
- ``consumers``: share consumers in virtual time (the page's and the sizing's workload);
- ``summary`` / ``timeline``: what the page counts and animates, from the model's own steps;
- ``capacity``: consumer group or share group, for a throughput target;
- ``cli``: ``python -m engine share-deliver``.
"""
