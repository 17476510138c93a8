"""Kafka's command-line tools (Kafka's ``tools`` module), read: their outputs become a scenario.

One parser per tool output -- ``consumer_groups`` (``kafka-consumer-groups.sh --describe``),
``streams_groups`` (``kafka-streams-groups.sh --describe``: a streams group), ``topics``
(``kafka-topics.sh --describe``), ``log_dirs`` (``kafka-log-dirs.sh --describe``), ``reassignment``
(``kafka-reassign-partitions.sh`` plans, read and written), ``racks`` (``broker,rack`` lines) -- fills one
``records.Imported``; ``detect.parse_text`` finds which lines belong to which tool; ``to_scenario`` makes the
scenario and lists what could not be used.

    from engine.tools.detect import parse_text
    from engine.tools.to_scenario import to_scenario
    result = to_scenario(parse_text(open("describe.txt").read()), group="orders-service")
"""
