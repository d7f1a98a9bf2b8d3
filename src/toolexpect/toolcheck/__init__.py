"""Check specs and recorded calls against a tool catalogue: pure, no I/O, no printing.

``check_spec`` finds what in a spec can never match a call the catalogue allows: an unknown
tool (``T500``), an unknown argument (``T501``), an ``=`` or ``!=`` literal the parameter's
JSON Schema rejects or a comparison or ``~`` pattern that no value it allows can meet
(``T502``), a matcher that cannot match the parameter's type (``T503``) and, as a warning, a
``forbid`` of a tool the catalogue lacks (``T504``). Each diagnostic sits at the span of the
expectation or argument it is about.

``check_calls`` finds recorded calls that break their tool's schema. Its findings are
separate from any accuracy score.
"""

from __future__ import annotations

from toolexpect.toolcheck.calls import CallFinding, check_calls, check_samples
from toolexpect.toolcheck.spec import check_spec, check_spec_file

__all__ = ["CallFinding", "check_calls", "check_samples", "check_spec", "check_spec_file"]
