"""Text to document: parse ``.expect`` source into the canonical JSON document.

Lark's parser (:func:`toolexpect.language.grammar.parser`) runs the document transformer as it
parses; its errors become diagnostics (:mod:`toolexpect.language.errors`). The document is
plain JSON data (dicts, lists, str, int, float, bool, None) with a span for every case,
statement and argument; comments are returned beside it for ``format``. Everything one parse
collects is its own, so any number of threads may parse at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

from lark.exceptions import UnexpectedInput

from toolexpect.diagnostics import Diagnostic, make
from toolexpect.document import Comment, Repeat
from toolexpect.language.context import collecting
from toolexpect.language.errors import syntax_diagnostic
from toolexpect.language.grammar import parser
from toolexpect.language.layout import MAX_DEPTH, DepthError
from toolexpect.language.strings import span_of
from toolexpect.language.transform import DOCUMENT_VERSION, assemble

__all__ = ["DOCUMENT_VERSION", "Comment", "ParseResult", "parse_text"]


@dataclass(slots=True)
class ParseResult:
    """What parsing gave: the document (``None`` on a syntax error) and what was found.

    ``repeats`` are the keys and statements written twice, of which the document keeps the
    last: lint reports them. They are kept beside a problem of a value (a bad escape, a ``...``
    in an ``in`` list), which refuses the document once the whole text is read, and are empty
    after a syntax error.
    """

    document: dict[str, Any] | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    repeats: list[Repeat] = field(default_factory=list)


def _too_deep(error: DepthError) -> Diagnostic:
    return make(
        "P104",
        f"values nest deeper than {MAX_DEPTH} levels",
        span_of(error.token),
        help=f"flatten the value; toolexpect reads at most {MAX_DEPTH} levels of [] and {{}}",
    )


def parse_text(text: str, name: str = "spec") -> ParseResult:
    """Parse ``.expect`` source; ``name`` names the implicit case (the file's stem)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    language = parser()
    with collecting() as collected:
        diagnostic: Diagnostic | None = None
        try:
            # With the transformer embedded, lark returns what ``ToDocument.start`` returns.
            items = cast("list[Any]", language.parse(text))
            document = assemble(items, name)
        except DepthError as error:
            diagnostic = _too_deep(error)
        except UnexpectedInput as error:
            diagnostic = syntax_diagnostic(error, text)
    comments = [Comment(str(t.value).rstrip("\r"), t.line or 1, t.column or 1) for t in collected.comments]
    if diagnostic is not None:
        return ParseResult(None, [diagnostic], comments)
    if collected.problems:
        first = min(collected.problems, key=lambda item: item[0])
        # The parse went to the end, so what was written twice is known: lint reports it too.
        return ParseResult(None, [first[1]], comments, collected.repeats)
    return ParseResult(document, [], comments, collected.repeats)
