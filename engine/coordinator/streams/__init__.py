"""Streams groups (KIP-1071): the group coordinator's task assignor, Kafka's
``org.apache.kafka.coordinator.group.streams.assignor`` package.

``task_id`` (``TaskId``), ``topology`` (``TopologyDescriber``: subtopologies, their tasks, stateful or not),
``group_spec`` (``GroupSpec``, ``AssignmentMemberSpec``: members in the coordinator's ``HashMap`` order and their
previous tasks), ``string_key_order`` (the ``HashMap<String, ...>`` iteration orders the assignor walks),
``process_state`` (``ProcessState``: a process's members, load and member heap), ``group_assignment``
(``GroupAssignment``, ``MemberAssignment``, and why each task went where), ``sticky_task_assignor``
(``StickyTaskAssignor``), ``case`` (a ``streams-assign`` case read and refused at the boundary), ``cli``
(``python -m engine streams-assign``) and ``group`` (the API pages call: a group described by its processes).
"""
