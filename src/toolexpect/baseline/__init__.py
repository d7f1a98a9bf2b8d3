"""The baseline: a saved JSON report loaded (``load``) and compared with a new one (``compare``).

``toolexpect diff`` and ``score --baseline`` use it; the reports of the comparison are rendered
by :mod:`toolexpect.report.diff`.
"""
