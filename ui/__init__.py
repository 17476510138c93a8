"""Streamlit glue shared by the pages: session state, cached engine calls, the sidebar.

No algorithms live here: everything that computes is in ``engine``.
"""
