"""Scale-out: a log cut into partitions, scored on local processes (``-j``) or a Dask cluster.

``partition`` and ``blocks`` cut logs into parts that score independently, ``shards`` reads and
scores one part, ``linked`` joins the runs whose records sit in several logs, ``processes``
runs the parts on local processes and ``dask`` on a Dask cluster (also importable as
:mod:`toolexpect.dask`). See docs/scale.md.
"""
