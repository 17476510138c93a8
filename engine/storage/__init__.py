"""The broker's storage (``org.apache.kafka.storage.internals.log`` and ``kafka.log`` in apache/kafka 4.0):
one partition's log on disk and the producer state the broker keeps for it.

* ``log_config``: ``LogConfig`` / ``ServerLogConfigs`` defaults and validators.
* ``records``: ``DefaultRecord.sizeInBytes`` and ``DefaultRecordBatch.RECORD_BATCH_OVERHEAD`` (exact sizes).
* ``index``: ``AbstractIndex`` (binary search with its warm section), ``OffsetIndex``, ``TimeIndex``.
* ``segment``: ``LogSegment`` (append, ``shouldRoll``, ``translateOffset``, ``findOffsetByTimestamp``).
* ``unified_log``: ``UnifiedLog`` / ``LocalLog`` (roll, read, offset-by-timestamp, retention).
* ``cleaner``: ``LogCleaner`` / ``Cleaner`` / ``LogCleanerManager`` compaction at the articles' level.
* ``producer_state``: ``ProducerStateEntry``, ``ProducerAppendInfo``, ``ProducerStateManager`` (idempotence).
* ``txn_log``: transactions as far as the seed articles go (markers, LSO, read_committed).
* ``partition_log``: a partition's log driven by a workload, with frames for the page; ``cli_log``.
* ``capacity``: bytes per partition per day -> segments, open files and index memory per broker.

Never imports streamlit; pure Python.
"""
