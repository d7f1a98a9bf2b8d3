"""GitHub Actions workflow commands: the annotations of the ``github`` formats, escaped once."""

from __future__ import annotations

__all__ = ["annotation"]


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def annotation(level: str, message: str, **properties: str | int | None) -> str:
    """``::level name=value,...::message``, with the message and the property values escaped
    as the runner reads them; properties given as ``None`` are left out, the rest keep their
    order."""
    props = ",".join(
        f"{name}={_data(str(value)).replace(':', '%3A').replace(',', '%2C')}"
        for name, value in properties.items()
        if value is not None
    )
    return f"::{level} {props}::{_data(message)}" if props else f"::{level}::{_data(message)}"
