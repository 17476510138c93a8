"""Benchmarks: each module prints a table of this engine's figures against a named baseline."""
