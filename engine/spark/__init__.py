"""The Spark load pipeline: real key samples -> per-partition and per-consumer load.

Modules (pyspark is imported only inside the functions of ``session``, ``io``, ``transforms`` and
``job``, so ``import engine.spark`` and ``engine.spark.sample`` never start or import Spark):

* ``session``    – local (embedded), ``--master``/``spark-submit`` and ``SPARK_REMOTE`` (Spark Connect)
* ``io``         – reading CSV / Parquet / JSON lines with clear one-line errors; atomic output
* ``transforms`` – typed ``DataFrame -> DataFrame`` steps (no IO), Kafka's murmur2 via ``mapInArrow``
* ``job``        – the whole run: read, transform, collect, write ``summary.json`` + Parquet atomically
* ``report``     – pure-Python views of a finished run (recommendation, tables for the page)
* ``sample``     – a numpy/pyarrow sample generator (Zipf keys, diurnal rate, log-normal sizes)
* ``cli``        – ``python -m engine load ...`` (../shared/spec/README.md, section 8)
"""
