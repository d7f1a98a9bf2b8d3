"""JSON and YAML spec files to documents, with an index from JSON path to source span.

The values come from the standard ``json`` module and PyYAML's safe loader, so integers
stay ``int`` and floats ``float``; a light tokenizer (JSON) or the composed node tree
(YAML) gives each key and value its place, so schema errors point at the source. Numbers
that the text language cannot write are refused where they stand (``P110``): NaN, infinities,
floats beyond the 64-bit range, floats that are not zero but read as 0 (``1e-400``) and
integers longer than ``MAX_INT_DIGITS``. A key written
twice in one object is kept as a :class:`~toolexpect.document.Repeat` for lint.

The names below are imported on first use: a spec read from the cache
(:mod:`toolexpect.specfiles.cache`) needs neither reader.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolexpect._lazy import exports

if TYPE_CHECKING:
    from toolexpect.specfiles.json_source import read_json
    from toolexpect.specfiles.located import DOCUMENT_DEPTH, Located
    from toolexpect.specfiles.yaml_source import read_yaml

__all__ = ["DOCUMENT_DEPTH", "Located", "read_json", "read_yaml"]

__getattr__, __dir__ = exports(
    __name__,
    {
        "DOCUMENT_DEPTH": "toolexpect.specfiles.located",
        "Located": "toolexpect.specfiles.located",
        "read_json": "toolexpect.specfiles.json_source",
        "read_yaml": "toolexpect.specfiles.yaml_source",
    },
)
