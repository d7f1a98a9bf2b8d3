"""Hypothesis profiles: ``default`` for the normal run, ``ci`` for CI, ``long`` for a manual
fuzzing session.

No profile has a deadline: how long one example takes depends on the machine's load, and speed
is measured in ``bench/``. ``ci`` (set by ``.ci/run``) draws the same examples on every run, so
that a submission passes or fails on its own merits; the normal run draws new ones each time.
``HYPOTHESIS_PROFILE=long pytest tests/language/test_fuzz_specs.py`` runs the fuzz tests with
fifty times as many examples (see CONTRIBUTING.md, "Testing").

toolexpect's caches (the parser's and the spec cache, see docs/cli.md) go to a temporary folder
of the session, through ``TOOLEXPECT_CACHE_DIR``, so the suite writes nothing in the user's
home; commands the tests start inherit it.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile

from hypothesis import settings

_CACHE = tempfile.mkdtemp(prefix="toolexpect-test-cache-")
os.environ["TOOLEXPECT_CACHE_DIR"] = _CACHE
os.environ.pop("TOOLEXPECT_NO_CACHE", None)
atexit.register(shutil.rmtree, _CACHE, ignore_errors=True)

settings.register_profile("default", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True)
settings.register_profile("long", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
