"""Streamlit glue shared by the pages, in floors and feature folders; no algorithms (everything that computes
is in ``engine``).

Floors, lowest first: ``text`` (language, display texts), ``runtime`` (cache and work, Streamlit-free), ``frame``
(the page frame, the door, the patches), ``inputs`` (shared widgets).  A module imports its own floor and the
floors below, never one above.  Feature folders (``scenario``, ``assignments``, ``share``, ``keys``, ``timer``,
``partition``, ``load``, ``lessons``) stand on every floor; a feature imports its own folder, the floors and the
``scenario`` feature, never another feature.  ``tests/ui/test_ui_layers.py`` checks it.
"""
