"""The timer feature: the Timing Wheel page's tasks, step controls and hover texts, its cached runs and measurement."""
