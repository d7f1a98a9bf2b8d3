"""Score logs on a Dask cluster: the public path of :mod:`toolexpect.scale.dask`."""

from __future__ import annotations

from toolexpect.scale.dask import RETRIES, LostWork, NoCluster, Spread, run, score

__all__ = ["RETRIES", "LostWork", "NoCluster", "Spread", "run", "score"]
