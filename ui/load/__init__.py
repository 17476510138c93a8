"""The load feature: the Load page's Spark run and results, the Sizing page's perf-test throughput fields, their
cached work."""
