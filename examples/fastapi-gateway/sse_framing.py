"""SSE line bookkeeping for the gateway: nothing here parses or rewrites the passthrough bytes.

`LineState` remembers, in three booleans, where the bytes already written to the client stand in
SSE's line grammar (text/event-stream: a line ends at CRLF, LF or CR; a blank line dispatches the
event). When the upstream fails mid-event, `closing_bytes()` says which line ends close what the
client already has, so the terminal error frame reaches it as its own event (docs/gateway.md,
"Cut mid-event"):

- a partial line gets ``\\n\\n`` (ends the line, then the blank line that dispatches it);
- a finished line with no blank line yet gets ``\\n``;
- a trailing CR is settled first with ``\\n`` (it becomes a CRLF, one line end, not two);
- at the start of the stream or right after a blank line, nothing is needed.

`SseParser` is the incremental parser the legacy GET derivation uses on the upstream stream (it
only reads; the canonical passthrough never goes through it).
"""
from __future__ import annotations

from typing import List, Optional

CR = 0x0D
LF = 0x0A


def _last_terminator(buf: bytes, start: int, end: int) -> int:
    return max(buf.rfind(b"\n", start, end), buf.rfind(b"\r", start, end))


class LineState:
    """Where the bytes written so far stand: O(1) state, updated per chunk without a byte loop."""

    __slots__ = ("cr", "cur", "last")

    def __init__(self) -> None:
        self.cr = False    # the last byte written was a CR (a following LF would join it as CRLF)
        self.cur = False   # the current (unterminated) line has content
        self.last = False  # the most recently terminated line had content (its event is not dispatched yet)

    def feed(self, chunk: bytes) -> None:
        n = len(chunk)
        if n == 0:
            return
        start = 0
        if self.cr and chunk[0] == LF:
            # The LF completes the CRLF begun by the previous chunk: no new line end.
            start = 1
            self.cr = False
            if n == 1:
                return
        i = _last_terminator(chunk, start, n)
        if i < 0:
            self.cur = True
            self.cr = False
            return
        # The last line end in the chunk begins at `end` (a CRLF begins at its CR).
        end = i - 1 if (chunk[i] == LF and i > start and chunk[i - 1] == CR) else i
        j = _last_terminator(chunk, start, end)
        line_had_content = (self.cur or end > start) if j < 0 else end > j + 1
        self.last = line_had_content
        if i < n - 1:
            self.cur = True
            self.cr = False
        else:
            self.cur = False
            self.cr = chunk[i] == CR

    def closing_bytes(self) -> bytes:
        out = b""
        if self.cr:
            out += b"\n"
        if self.cur:
            out += b"\n\n"
        elif self.last:
            out += b"\n"
        return out


class SseParser:
    """Incremental text/event-stream parser (WHATWG rules): feed bytes, get each event's data."""

    def __init__(self, max_line_bytes: int = 16 * 1024 * 1024) -> None:
        self._buf = bytearray()
        self._cr = False
        self._data: List[str] = []
        self._has_data = False
        self._event_bytes = 0
        self._max = max_line_bytes

    def feed(self, chunk: bytes) -> List[str]:
        out: List[str] = []
        pos = 0
        n = len(chunk)
        if self._cr and n and chunk[0] == LF:
            pos = 1
        self._cr = False
        while pos < n:
            i_lf = chunk.find(b"\n", pos)
            i_cr = chunk.find(b"\r", pos)
            if i_lf < 0 and i_cr < 0:
                self._buf += chunk[pos:]
                if len(self._buf) + self._event_bytes > self._max:
                    # An absurd line: drop the event rather than hold unbounded memory.
                    self._buf.clear()
                    self._data.clear()
                    self._has_data = False
                    self._event_bytes = 0
                break
            i = i_lf if i_cr < 0 else i_cr if i_lf < 0 else min(i_lf, i_cr)
            self._buf += chunk[pos:i]
            line = bytes(self._buf)
            self._buf.clear()
            ev = self._line(line)
            if ev is not None:
                out.append(ev)
            if chunk[i] == CR:
                if i + 1 < n:
                    pos = i + 2 if chunk[i + 1] == LF else i + 1
                else:
                    self._cr = True
                    pos = n
            else:
                pos = i + 1
        return out

    def _line(self, line: bytes) -> Optional[str]:
        if not line:
            if not self._has_data:
                self._data.clear()
                return None
            data = "\n".join(self._data)
            self._data.clear()
            self._has_data = False
            self._event_bytes = 0
            return data
        if line[:1] == b":":
            return None
        text = line.decode("utf-8", "replace")
        field, sep, value = text.partition(":")
        if sep and value.startswith(" "):
            value = value[1:]
        if field == "data":
            self._data.append(value if sep else "")
            self._has_data = True
            self._event_bytes += len(line)
        return None
