"""The spec cache: each spec file's parsed, checked result, kept on disk by content.

A spec file read before, with the same bytes and under the same name, by the same toolexpect,
lark and Python, is not parsed again: what the pipeline made of it (its document, diagnostics,
comments and repeats) is read back from the user's cache folder
(:func:`toolexpect.caching.cache_folder`), as ruff and mypy keep theirs.

* **The key.** An entry is named by a SHA-256 of its *environment* (the entry format,
  toolexpect's version, Python's version, where lark, RE2, PyYAML and the schema validators are
  installed with the size and time of their module files, the grammar text, the spec JSON
  Schema, and the name, size and modification time of every source file of the package, so
  that an edit to toolexpect in a checkout invalidates it) and of the file's form (text, JSON or
  YAML), its implicit case's name (the file name's stem) and its bytes. The path is not part of
  it: the same bytes at another path (with the same stem) read the same entry, and its
  diagnostics are placed at the path being read. What ``lint --tools`` finds is kept beside,
  under the spec's key and everything the catalogue holds (:func:`catalogue_key`).
* **The entry** is a header (a magic line, the key, a BLAKE2 digest of what follows) and a
  pickle of builtins and toolexpect's own frozen dataclasses, read back by an unpickler that
  admits only those classes (:data:`ALLOWED`): a planted file cannot run code. An entry that is
  truncated, corrupt, foreign or of another shape is ignored and written afresh; nothing about
  the cache is ever an error, and a result never depends on it.
* **Concurrency.** An entry is written to a temporary file in its own folder and renamed into
  place (``os.replace``): any number of processes may read and write at once, and none reads
  half an entry.
* **Bounds.** Entries live in ``specs/<environment>/``; the first process that writes there
  prunes the folder to half of :data:`MAX_ENTRIES` (the oldest first) once it holds more, and
  removes the folders of other environments (older toolexpect versions) untouched for
  :data:`STALE_DAYS` days. Deleting the whole folder is always safe.
* **Off.** ``TOOLEXPECT_NO_CACHE=1``, or ``--no-cache`` on the command line: nothing is read
  and nothing is written.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import os
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolexpect._version import __version__
from toolexpect.caching import cache_folder
from toolexpect.diagnostics import Diagnostic, Severity, Span
from toolexpect.document import Comment, Repeat

if TYPE_CHECKING:
    from toolexpect.catalogue import Catalogue

__all__ = [
    "ALLOWED",
    "MAX_ENTRIES",
    "STALE_DAYS",
    "Cached",
    "Checked",
    "catalogue_key",
    "entry_path",
    "environment_digest",
    "read",
    "spec_key",
    "write",
]

FORMAT = 1
"""The layout of an entry; a change of what is stored gives a new number (and new keys)."""

MAGIC = b"toolexpect spec cache\n"

MAX_ENTRIES = 10_000
"""The most entries one environment's folder holds before the oldest half is removed."""

STALE_DAYS = 30
"""How long another environment's folder stays after its last write."""

_DIGEST = 16
_PRUNED: set[str] = set()


@dataclass(frozen=True, slots=True)
class Cached:
    """What the pipeline made of one spec's text, as the cache keeps it (diagnostics unplaced)."""

    document: dict[str, Any] | None
    diagnostics: tuple[Diagnostic, ...]
    comments: tuple[Comment, ...]
    repeats: tuple[Repeat, ...]
    modelled: bool


@dataclass(frozen=True, slots=True)
class Checked:
    """What ``lint --tools`` found in one spec with one catalogue: every diagnostic, unplaced,
    and whether each was placed in the spec's file."""

    diagnostics: tuple[Diagnostic, ...]
    placed: tuple[bool, ...]


ALLOWED: dict[tuple[str, str], type] = {
    (kind.__module__, kind.__qualname__): kind
    for kind in (Cached, Checked, Diagnostic, Span, Severity, Comment, Repeat)
}
"""The only classes an entry may name: toolexpect's own data classes. Everything else in an
entry is a builtin value pickle writes without naming a class (dicts, lists, tuples, strings,
numbers, booleans, ``None``)."""


class _Unpickler(pickle.Unpickler):
    """An unpickler that finds only the classes of :data:`ALLOWED`."""

    def find_class(self, module: str, name: str) -> Any:
        """The allowed class ``module.name``; any other name is refused."""
        found = ALLOWED.get((module, name))
        if found is None:
            raise pickle.UnpicklingError(f"the spec cache holds no {module}.{name}")
        return found


DEPENDENCIES = ("lark", "re2", "yaml", "jsonschema_rs", "jsonschema")
"""The libraries whose work an entry holds: the parser, lint's RE2, the YAML reader and the
schema validators."""


def _dependencies() -> bytes:
    """Where each of :data:`DEPENDENCIES` is installed, with the size and modification time of
    its module file (another version or a reinstall changes them), found without importing it."""
    from importlib.util import find_spec

    found = []
    for name in DEPENDENCIES:
        try:
            spec = find_spec(name)
            origin = spec.origin if spec is not None else None
            status = os.stat(origin) if origin else None
        except (ImportError, OSError, ValueError):
            origin, status = None, None
        held = f"{status.st_size} {status.st_mtime_ns}" if status is not None else "none"
        found.append(f"{name} {origin} {held}")
    return "\n".join(found).encode("utf-8", "surrogatepass")


def _sources(folder: str, prefix: str = "") -> list[str]:
    """The name, size and modification time of each source file under ``folder``, in order."""
    found: list[str] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return found
    for entry in entries:
        name = entry.name
        if name.endswith((".py", ".lark", ".json")):
            with contextlib.suppress(OSError):
                status = entry.stat()
                found.append(f"{prefix}{name} {status.st_size} {status.st_mtime_ns}")
        elif name != "__pycache__" and "." not in name and entry.is_dir():
            found.extend(_sources(entry.path, f"{prefix}{name}/"))
    return found


@functools.cache
def environment_digest() -> str:
    """The hex digest of everything but the file that an entry depends on (see the module)."""
    from toolexpect.language.source import grammar_path

    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    digest.update(f"format {FORMAT}\ntoolexpect {__version__}\npython {sys.version}\n".encode())
    for part in (
        _dependencies(),
        grammar_path().read_bytes(),
        (package / "schema" / "spec.schema.json").read_bytes(),
        "\n".join(_sources(str(package))).encode(),
    ):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def spec_key(data: bytes, kind: str, name: str) -> bytes:
    """The key of a spec file's entry: its environment, form, implicit case's name and bytes."""
    digest = hashlib.sha256(environment_digest().encode())
    for part in (kind.encode(), name.encode("utf-8", "surrogatepass")):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    digest.update(data)
    return digest.digest()


def catalogue_key(key: bytes, catalogue: Catalogue) -> bytes:
    """The key of what a catalogue finds in the spec of entry ``key``: that key and everything
    the catalogue holds (its path, format, and each tool's name, parameters and description)."""
    import json

    held: list[Any] = [catalogue.path, catalogue.format]
    held.extend([t.name, t.parameters, t.description] for t in catalogue.tools.values())
    text = json.dumps(held, ensure_ascii=False, default=repr)
    return hashlib.sha256(b"catalogue\0" + key + text.encode("utf-8", "surrogatepass")).digest()


def entry_path(key: bytes) -> str | None:
    """Where the entry of ``key`` is kept; ``None`` when caching is off."""
    folder = cache_folder()
    if folder is None:
        return None
    return os.path.join(folder, "specs", environment_digest()[:16], key.hex())


def read(key: bytes) -> Cached | Checked | None:
    """The entry of ``key``, or ``None``: none yet, caching off, or an entry that is not whole,
    not this key's, or not of the expected shape (never an error)."""
    path = entry_path(key)
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            blob = file.read()
    except OSError:
        return None
    head = len(MAGIC) + len(key) + _DIGEST
    if len(blob) < head or not blob.startswith(MAGIC) or blob[len(MAGIC) : len(MAGIC) + len(key)] != key:
        return None
    payload = memoryview(blob)[head:]
    if hashlib.blake2b(payload, digest_size=_DIGEST).digest() != blob[head - _DIGEST : head]:
        return None
    try:
        value = _Unpickler(io.BytesIO(payload)).load()
    except Exception:  # any damage; the entry is written again
        return None
    return value if _well_formed(value) else None


def _well_formed(value: object) -> bool:
    """Whether an unpickled entry has the shape :func:`write` gives it."""
    if isinstance(value, Checked):
        return (
            isinstance(value.diagnostics, tuple)
            and isinstance(value.placed, tuple)
            and len(value.placed) == len(value.diagnostics)
            and all(isinstance(d, Diagnostic) for d in value.diagnostics)
            and all(isinstance(p, bool) for p in value.placed)
        )
    return (
        isinstance(value, Cached)
        and (value.document is None or isinstance(value.document, dict))
        and isinstance(value.diagnostics, tuple)
        and all(isinstance(d, Diagnostic) for d in value.diagnostics)
        and isinstance(value.comments, tuple)
        and all(isinstance(c, Comment) for c in value.comments)
        and isinstance(value.repeats, tuple)
        and all(isinstance(r, Repeat) for r in value.repeats)
        and isinstance(value.modelled, bool)
    )


def write(key: bytes, entry: Cached | Checked) -> None:
    """Keep ``entry`` under ``key``: written aside, then renamed into place; a failure (a full
    disk, a read-only folder) only means the next run parses again."""
    path = entry_path(key)
    if path is None:
        return
    try:
        payload = pickle.dumps(entry, protocol=5)
    except Exception:  # a value pickle cannot write: nothing is kept
        return
    folder = os.path.dirname(path)
    fresh = os.path.join(folder, f".{key.hex()[:16]}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    blob = MAGIC + key + hashlib.blake2b(payload, digest_size=_DIGEST).digest() + payload
    try:
        if folder not in _PRUNED:  # made and pruned once a process
            os.makedirs(folder, mode=0o700, exist_ok=True)
            _prune_once(folder)
        handle = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileNotFoundError:  # the folder was removed since: made again by the next write
        _PRUNED.discard(folder)
        return
    except OSError:
        return
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(blob)
        os.replace(fresh, path)
    except BaseException as error:  # nothing half written stays; only a failure to write is quiet
        with contextlib.suppress(OSError):
            os.unlink(fresh)
        if not isinstance(error, OSError):
            raise


def _prune_once(folder: str) -> None:
    """Bound the cache, once per process and folder: the oldest entries of ``folder`` past
    :data:`MAX_ENTRIES`, and other environments' folders untouched for :data:`STALE_DAYS`."""
    if folder in _PRUNED:
        return
    _PRUNED.add(folder)
    with contextlib.suppress(OSError):
        entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(folder) if e.is_file()]
        if len(entries) > MAX_ENTRIES:
            entries.sort()
            for _, old in entries[: len(entries) - MAX_ENTRIES // 2]:
                with contextlib.suppress(OSError):
                    os.unlink(old)
    parent = os.path.dirname(folder)
    limit = time.time() - STALE_DAYS * 86400
    with contextlib.suppress(OSError):
        for other in os.scandir(parent):
            if other.path != folder and other.is_dir() and other.stat().st_mtime < limit:
                _remove_folder(other.path)


def _remove_folder(folder: str) -> None:
    """Remove a folder of entries (files only; nothing else is ever kept there)."""
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            with contextlib.suppress(OSError):
                os.unlink(entry.path)
        os.rmdir(folder)
