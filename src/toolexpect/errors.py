"""The root of every exception toolexpect raises on purpose: ``except ToolexpectError`` catches
them all. Each still derives from the built-in exception it derived from before, so
``except ValueError`` and the like keep working.

Exception tree: each class, the built-in it also derives from, the module it lives in, what it
means::

    ToolexpectError
     ├── SpecError               ValueError      api                 an invalid spec; ``.diagnostics``
     ├── ToolCallAssertionError  AssertionError  api                 a failed ``assert_*``
     ├── LogError                                logs                a log that cannot be read at all
     ├── Shrank                  OSError         logs.streams        a log shrank as it was read
     ├── CatalogueError                          catalogue           a catalogue that cannot be read
     ├── SettingsError                           settings            an unusable ``[tool.toolexpect]``
     ├── ReportError                             report.load         not a score report we read
     ├── LostWork                RuntimeError    dask                the cluster gave up on a task
     ├── NoCluster               RuntimeError    dask                the local cluster did not start
     ├── ToolexpectCaseFailure                   pytest_plugin       a spec case failed under pytest
     ├── Problem                                 language.strings    a token that is not a valid value
     └── DepthError                              language.layout     values nested too deep

``LogError``, ``CatalogueError``, ``ReportError`` and ``Problem`` carry the finding as
``.diagnostic``. ``Shrank`` reaches the caller as a ``LogError`` (the log readers turn it into
one); ``Problem`` and ``DepthError`` never leave the parser, which turns them into diagnostics.

Exceptions with a leading underscore are signals inside one module and stay outside the tree.
"""

from __future__ import annotations

__all__ = ["ToolexpectError"]


class ToolexpectError(Exception):
    """The base of every exception toolexpect raises on purpose (see the tree above)."""
