"""Plotly figure builders: pure functions, data in, ``go.Figure`` out (no Streamlit)."""
