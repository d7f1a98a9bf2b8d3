"""The frame reader: good frames come out whole and in order however the stream is cut into
chunks, and whatever broken frames come between them."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from toolexpect.server.frames import MAX_FRAME, FrameReader, Refused

from .raw import frame
from .test_hostile import BAD_FRAMES

messages = st.lists(
    st.dictionaries(st.text(max_size=5), st.text(max_size=20), max_size=3).map(
        lambda params: {"jsonrpc": "2.0", "method": "m", "params": params}
    ),
    min_size=1,
    max_size=6,
)
bad = st.sampled_from([value for name, value in BAD_FRAMES.items() if "100000" not in name])


def read_all(stream: bytes, cuts: list[int]) -> list[bytes | Refused]:
    """Everything a reader makes of ``stream`` fed in pieces cut at ``cuts``."""
    reader = FrameReader()
    found: list[bytes | Refused] = []
    start = 0
    for cut in [*sorted({min(c, len(stream)) for c in cuts}), len(stream)]:
        found.extend(reader.feed(stream[start:cut]))
        start = cut
    return found


@given(messages, st.lists(st.integers(0, 4000)))
def test_good_frames_come_out_whole_however_the_stream_is_cut(
    sent: list[dict[str, object]], cuts: list[int]
) -> None:
    """Each frame's body, in order, and nothing else."""
    stream = b"".join(frame(m) for m in sent)
    assert [json.loads(b) for b in read_all(stream, cuts) if isinstance(b, bytes)] == sent


@given(messages, st.lists(st.one_of(st.none(), bad)), st.lists(st.integers(0, 8000)))
def test_a_good_frame_after_any_broken_one_is_read(
    sent: list[dict[str, object]], broken: list[bytes | None], cuts: list[int]
) -> None:
    """Broken frames between good ones cost only themselves: every good one comes out."""
    stream = b""
    for index, message in enumerate(sent):
        before = broken[index] if index < len(broken) else None
        stream += (before or b"") + frame(message)
    bodies = [b for b in read_all(stream, cuts) if isinstance(b, bytes)]
    decoded = []
    for body in bodies:
        try:
            decoded.append(json.loads(body))
        except ValueError:
            continue
    assert [m for m in decoded if isinstance(m, dict) and m.get("method") == "m"] == sent


def test_a_frame_over_the_limit_is_refused_and_never_kept() -> None:
    """A header over :data:`MAX_FRAME` gives :class:`Refused`; its bytes are dropped as they come."""
    reader = FrameReader()
    assert reader.feed(b"Content-Length: %d\r\n\r\n" % (MAX_FRAME + 1)) == [Refused(str(MAX_FRAME + 1))]
    for _ in range(100):
        assert reader.feed(b"x" * 65536) == []
    assert len(reader._buffer) <= 4096 + 65536
    assert reader.feed(frame(b"{}")) == [b"{}"]
