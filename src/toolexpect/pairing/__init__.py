"""Pairing recorded runs with cases: the stage between the log readers and scoring.

``pair_runs(specs, logs, PairingOptions(by=..., case_from=...))`` gives the runs of the logs,
each named after the case it pairs with, and the pairing findings; see ``docs/logs.md``.
"""

from __future__ import annotations

from toolexpect.pairing.options import PAIR_BY, PairingOptions, field_path
from toolexpect.pairing.stage import COMPLETE, PairedRuns, log_stem, pair_runs

__all__ = ["COMPLETE", "PAIR_BY", "PairedRuns", "PairingOptions", "field_path", "log_stem", "pair_runs"]
