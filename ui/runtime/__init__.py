"""Runtime floor, Streamlit-free: the server's byte-bounded cache, work by its estimate (inline, a worker process,
refused), what a worker runs, and the display hook the frame fills."""
