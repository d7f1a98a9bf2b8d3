"""Hypothesis profiles: ``default`` for the normal run, ``long`` for a manual fuzzing session.

``HYPOTHESIS_PROFILE=long pytest tests/language/test_fuzz_specs.py`` runs the fuzz tests with
fifty times as many examples (see CONTRIBUTING.md, "Testing").
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("long", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
