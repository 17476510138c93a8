"""Kafka Partition Lab engine: pure, typed Python that computes what real Apache Kafka computes.

Never imports streamlit; pyspark only inside ``engine.spark`` (imported lazily).
"""
