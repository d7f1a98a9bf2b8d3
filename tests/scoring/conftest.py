"""The local cluster the tests of ``score --dask`` share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from distributed import Client, LocalCluster


@pytest.fixture(scope="session")
def client() -> Iterator[Client]:
    """One local cluster of two worker processes for the whole session."""
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster,
        Client(cluster) as connected,
    ):
        yield connected
