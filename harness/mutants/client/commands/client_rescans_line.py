#!/usr/bin/env python3
"""Command mutant `client-command-rescans-line`: examples/python-client/client.py with one defect,
the example's own reader before stop 49's CI found it: each piece is appended to one buffer, which
is searched for a line end from its start. Every record is right; only a long line costs time
quadratic in its pieces: the large-event probe's 3 MiB line in 1 KiB pieces takes it many times
the same bytes as small events (CLI-LARGE-002; eventsource-parser#19 and #28, EventSource#130,
eventsource-stream#11: the same defect in published SSE parsers). In framing_huge_event's pieces
of up to 32 KiB it reads the line whole and in time (CLI-LARGE-001 passes).
"""
import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ in the example folder
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-client"))
import client  # noqa: E402  (the example, imported so the mutant differs from it in this one place)


class Reader(client.Reader):
    def feed(self, text, at_eof=False):
        self.buffer = getattr(self, "buffer", "") + text
        while True:
            cr, lf = self.buffer.find("\r"), self.buffer.find("\n")
            ends = [i for i in (cr, lf) if i >= 0]
            if not ends:
                break
            i = min(ends)
            if self.buffer[i] == "\r" and i == len(self.buffer) - 1 and not at_eof:
                break  # may be the first half of a CRLF: wait for the next byte
            step = 2 if self.buffer[i] == "\r" and self.buffer[i + 1:i + 2] == "\n" else 1
            line, self.buffer = self.buffer[:i], self.buffer[i + step:]
            self.line(line)
        if at_eof:
            self.buffer = ""


client.Reader = Reader

if __name__ == "__main__":
    sys.exit(client.main())
