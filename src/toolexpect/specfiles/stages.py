"""One spec file through the pipeline: read → parse → validate → lint → model.

Nothing here raises on bad input: every problem is a diagnostic in the result, and the
model is built only from a document that is valid and free of lint errors.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from toolexpect.bounded import read_up_to
from toolexpect.diagnostics import Diagnostic, Severity, Span, make
from toolexpect.document import Comment, Repeat

if TYPE_CHECKING:
    from toolexpect.model import Spec

__all__ = [
    "MAX_SPEC_BYTES",
    "SPEC_SUFFIXES",
    "SpecFile",
    "find_spec_files",
    "kind_of",
    "load_spec_file",
    "load_spec_files",
    "parse_cached",
    "parse_spec_source",
    "too_large",
]

MAX_SPEC_BYTES = 256 * 1024
"""The largest spec file toolexpect reads (256 KiB, about 5,000 hand-written lines): about what
lint and compile go through in a second (docs/language.md); a larger spec is better split into
several files."""

SPEC_SUFFIXES = (".expect", ".expect.json", ".expect.yaml", ".expect.yml")
"""The endings of spec files that folder arguments are searched for."""

Kind = Literal["text", "json", "yaml"]

_VALUE_CODES = {"V204", "V205", "V206", "V207"}


@dataclass(slots=True)
class SpecFile:
    """A spec file after the pipeline: its text, document, model and diagnostics.

    The model (``spec``) is built on first use, and only from a document that was valid and
    free of lint errors at the end of the pipeline: ``toolexpect lint`` never needs it.
    """

    path: str | None
    kind: Kind
    text: str | None = None
    document: dict[str, Any] | None = None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    comments: list[Comment] = field(default_factory=list)
    repeats: list[Repeat] = field(default_factory=list)
    """What the reader found written twice where the document holds one (the last)."""
    modelled: bool = False
    """True when the pipeline found the document fit for a model."""
    _spec: Spec | None = field(default=None, repr=False, compare=False)
    cache_key: bytes | None = field(default=None, repr=False, compare=False)
    """The key of the file's entry in the spec cache (``None``: not read through it)."""

    @property
    def spec(self) -> Spec | None:
        """The typed model of the spec, or ``None`` when the pipeline found problems."""
        if self._spec is None and self.modelled and self.document is not None:
            from toolexpect.model import from_document  # lint never needs the model

            self._spec = from_document(self.document, self.path)
        return self._spec

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    @property
    def formattable(self) -> bool:
        """True when the document holds all the source says, so that writing it loses nothing.

        Lint findings do not matter, except three kinds that formatting would lose or change:
        a statement written twice in a case (L308: the document keeps the last), a key written
        twice in an object (L309: the last value), and a chain of a JSON or YAML spec that
        names expectations out of order or out of range (L307: text writes chains in order).
        """
        if self.document is None or self.repeats:
            return False
        for case in self.document["cases"]:
            count = len(case.get("expect", ()))
            used: set[int] = set()
            for chain in case.get("chains", ()):
                in_order = bool(chain) and chain == list(range(chain[0], chain[0] + len(chain)))
                if not in_order or chain[0] < 0 or chain[-1] >= count or used & set(chain):
                    return False
                used |= set(chain)
        return True

    def formatted(self, line_length: int) -> str | None:
        """The spec in the canonical layout (``toolexpect format``), or ``None`` when it is not
        :attr:`formattable`. Text keeps its line ending and byte order mark; a JSON or YAML spec
        is written as text with LF endings and no blank lines."""
        if self.document is None or not self.formattable:
            return None
        from toolexpect.language.format import format_document, line_ending  # only format needs it

        text = self.text or ""
        as_text = self.kind == "text"
        return format_document(
            self.document,
            self.comments,
            newline=line_ending(text) if as_text else "\n",
            bom=as_text and text.startswith("\ufeff"),
            blank_lines=as_text,
            line_length=line_length,
        )


def kind_of(path: str | os.PathLike[str]) -> Kind:
    """The spec form a file holds, by its ending: JSON, YAML or the text language."""
    name = str(path).lower()
    if name.endswith(".json"):
        return "json"
    if name.endswith((".yaml", ".yml")):
        return "yaml"
    return "text"


def stem_of(path: str | os.PathLike[str]) -> str:
    """The implicit case's name: the file name without its spec ending."""
    name = Path(path).name
    for suffix in sorted(SPEC_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return Path(path).stem


def parse_spec_source(
    text: str, kind: Kind = "text", *, name: str = "spec", path: str | None = None
) -> SpecFile:
    """Run source text through the pipeline; ``name`` names a text file's implicit case."""
    # Imported here: a spec read from the cache (specfiles.cache) needs none of them.
    from toolexpect import lint, schema
    from toolexpect.language.parse import parse_text
    from toolexpect.specfiles import read_json, read_yaml

    result = SpecFile(path=path, kind=kind, text=text)
    locate: Any
    repeats: list[Repeat]
    if kind == "text":
        parsed = parse_text(text, name)
        result.comments = parsed.comments
        result.diagnostics.extend(parsed.diagnostics)
        document = parsed.document
        repeats = parsed.repeats
        locate = None
    else:
        located = read_json(text) if kind == "json" else read_yaml(text)
        result.diagnostics.extend(located.diagnostics)
        document = located.document
        repeats = located.repeats

        def locate(path_key: tuple[str | int, ...], key: bool = False) -> Any:
            return located.locate(path_key, key=key)

    result.repeats = list(repeats)
    if document is None:
        if repeats:  # found though the document was refused: reported beside why it was
            result.diagnostics.extend(lint.repeat_checks(repeats))
            result.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
        return _placed(result)
    if kind == "text":
        # The parser writes the spans itself; what the user wrote is everything else.
        problems = schema.validate(document, schema.locate_in_document(document), trusted_spans=True)
    else:
        problems = schema.validate(document, locate)
    if problems:
        result.diagnostics.extend(problems)
        if {d.code for d in problems} <= _VALUE_CODES:
            # The structure is sound, only values are out of range: lint can still run.
            result.diagnostics.extend(
                lint.check(document, locate or schema.locate_in_document(document), repeats)
            )
            result.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))
        return _placed(result)
    if kind != "text":
        _attach_spans(document, locate)
    result.document = document
    result.diagnostics.extend(lint.check(document, locate or schema.locate_in_document(document), repeats))
    result.modelled = result.ok
    return _placed(result)


def _attach_spans(document: dict[str, Any], locate: Any) -> None:
    """Give the nodes of a JSON or YAML document the spans of their source, as text has."""
    for ci, case in enumerate(document["cases"]):
        _set_span(case, locate(("cases", ci)))
        for kind in ("expect", "forbid", "allow"):
            for i, call in enumerate(case.get(kind, ())):
                _set_span(call, locate(("cases", ci, kind, i)))
                for ai, arg in enumerate(call.get("args", ())):
                    _set_span(arg, locate(("cases", ci, kind, i, "args", ai)))
                    _value_spans(arg, ("cases", ci, kind, i, "args", ai), locate)
        for ri, req in enumerate(case.get("require", ())):
            _set_span(req, locate(("cases", ci, "require", ri)))
            call = req.get("call")
            if isinstance(call, dict):  # a count's call
                _set_span(call, locate(("cases", ci, "require", ri, "call")))
                for ai, arg in enumerate(call.get("args", ())):
                    here = ("cases", ci, "require", ri, "call", "args", ai)
                    _set_span(arg, locate(here))
                    _value_spans(arg, here, locate)


def _value_spans(arg: dict[str, Any], path: tuple[str | int, ...], locate: Any) -> None:
    """Give the matchers of keys inside an argument's value (``{"$match": [...]}``) their spans."""
    if not isinstance(arg.get("value"), dict | list):
        return
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(arg["value"], (*path, "value"))]
    while stack:
        node, where = stack.pop()
        if isinstance(node, list):
            stack.extend((item, (*where, index)) for index, item in enumerate(node))
            continue
        if not isinstance(node, dict) or (len(node) == 1 and "$literal" in node):
            continue
        if len(node) == 1 and isinstance(node.get("$partial"), dict):
            node, where = node["$partial"], (*where, "$partial")
        for key, entry in node.items():
            here = (*where, key)
            if isinstance(entry, dict) and len(entry) == 1 and isinstance(entry.get("$match"), list):
                for index, matcher in enumerate(entry["$match"]):
                    if isinstance(matcher, dict):
                        _set_span(matcher, locate((*here, "$match", index)))
                        _value_spans(matcher, (*here, "$match", index), locate)
            else:
                stack.append((entry, here))


def _set_span(node: dict[str, Any], span: Any) -> None:
    if span is not None and "span" not in node:
        node["span"] = span.to_json()


def _placed(result: SpecFile) -> SpecFile:
    if result.path is not None:
        result.diagnostics = [d.with_path(result.path) for d in result.diagnostics]
    return result


def load_spec_file(path: str | os.PathLike[str]) -> SpecFile:
    """Read a spec file from disk and run it through the pipeline, or read what the pipeline
    made of the same bytes from the spec cache (:mod:`toolexpect.specfiles.cache`)."""
    shown = str(path)
    kind = kind_of(path)

    def refused(diagnostic: Diagnostic) -> SpecFile:
        return _placed(SpecFile(shown, kind, diagnostics=[diagnostic]))

    try:
        data, size = _read_bounded(path)
    except OSError as error:
        return refused(
            make(
                "P107",
                f"cannot read spec file: {error.strerror or error}",
                help="check the path and its permissions",
            )
        )
    if data is None:
        return refused(too_large(size))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line = data.count(b"\n", 0, error.start) + 1
        column = len(data[line_start : error.start].decode("utf-8")) + 1
        return refused(
            make(
                "P106",
                f"spec file is not UTF-8 text (byte 0x{data[error.start]:02x})",
                Span.point(line, column),
                help="save the file as UTF-8",
            )
        )
    return parse_cached(text, kind, name=stem_of(path), path=shown, data=data)


def parse_cached(
    text: str,
    kind: Kind = "text",
    *,
    name: str = "spec",
    path: str | None = None,
    data: bytes | None = None,
) -> SpecFile:
    """As :func:`parse_spec_source`, but read from the spec cache when it holds the same text
    (``data``: its bytes, if known) of the same form and name, and kept there when it does not
    (:mod:`toolexpect.specfiles.cache`); the result is the same either way."""
    from toolexpect.caching import cache_folder
    from toolexpect.specfiles import cache

    if cache_folder() is None:
        return parse_spec_source(text, kind, name=name, path=path)
    if data is None:
        data = text.encode("utf-8", "surrogatepass")
    key = cache.spec_key(data, kind, name)
    entry = cache.read(key)
    if not isinstance(entry, cache.Cached):
        result = parse_spec_source(text, kind, name=name)
        cache.write(
            key,
            cache.Cached(
                result.document,
                tuple(result.diagnostics),
                tuple(result.comments),
                tuple(result.repeats),
                result.modelled,
            ),
        )
    else:
        result = SpecFile(
            path=None,
            kind=kind,
            text=text,
            document=entry.document,
            diagnostics=list(entry.diagnostics),
            comments=list(entry.comments),
            repeats=list(entry.repeats),
            modelled=entry.modelled,
        )
    result.path = path
    result.cache_key = key
    return _placed(result)


def too_large(size: int | None) -> Diagnostic:
    """The ``P105`` of a spec larger than :data:`MAX_SPEC_BYTES` (``size``: its bytes, if known)."""
    held = f"is {size:,} bytes" if size is not None else f"holds more than {MAX_SPEC_BYTES:,} bytes"
    return make(
        "P105",
        f"spec file {held}; the limit is {MAX_SPEC_BYTES:,}",
        help="split the spec into several files",
    )


def _read_bounded(path: str | os.PathLike[str]) -> tuple[bytes | None, int | None]:
    """The bytes of ``path``, or ``None`` when it holds more than ``MAX_SPEC_BYTES``; and the
    size a regular file reports.

    That size is not trusted: a device (``/dev/zero``), a pipe or a file that grows while it
    is read says nothing true about what it holds, so at most one byte more than the limit is
    read, whatever the file is.
    """
    with open(path, "rb") as handle:
        status = os.fstat(handle.fileno())
        size = status.st_size if stat.S_ISREG(status.st_mode) else None
        if size is not None and size > MAX_SPEC_BYTES:
            return None, size
        data = read_up_to(handle, MAX_SPEC_BYTES + 1)
    if len(data) > MAX_SPEC_BYTES:
        return None, None
    return data, size


def find_spec_files(paths: Iterable[str | os.PathLike[str]]) -> Iterator[Path | str]:
    """Expand folders into the spec files below them (sorted); files are taken as given.

    A path that does not exist is yielded as a string, so that reading it reports it.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = [
                p
                for p in path.rglob("*")
                if p.is_file()
                and p.name.lower().endswith(SPEC_SUFFIXES)
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
            ]
            yield from sorted(found)
        else:
            yield str(raw)


def load_spec_files(paths: Iterable[str | os.PathLike[str]]) -> tuple[dict[str, SpecFile], list[str]]:
    """Every spec file under ``paths`` (folders expanded as :func:`find_spec_files` does),
    loaded once each by path, and the folders given that hold none: what every command and
    the scoring API read specs with."""
    files: dict[str, SpecFile] = {}
    missing: list[str] = []
    for given in paths:
        found = list(find_spec_files([given]))
        if not found and Path(given).is_dir():
            missing.append(str(given))
        for path in found:
            if str(path) not in files:
                files[str(path)] = load_spec_file(path)
    return files, missing
