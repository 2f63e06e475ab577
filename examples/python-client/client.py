#!/usr/bin/env python3
"""A POST SSE client's reading half for adk-conformance's client command contract, standard library only.

    npx adk-conformance run --client-cmd "python3 examples/python-client/client.py"

docs/client-contract.md is the contract: the `/run_sse` response body arrives on stdin as raw
bytes; for every event the WHATWG rules dispatch, print `{"data": ..., "event"?: ..., "id"?: ...}`
on one line; when the run is over, print `{"end": ..., "completed": ...}` and exit 0. The run is
over when the kit's completion rule says so (docs/completion.md): an error frame or `[DONE]` ends
it at once; the body's end ends it (`cut` when $ADK_CONFORMANCE_TRANSPORT_END is `reset`); on a
connection held open, the root agent's final answer followed by $ADK_CONFORMANCE_GRACE_MS of
silence ends it (`final-rule`), else $ADK_CONFORMANCE_IDLE_MS of silence (`idle`).
A non-200 answer ($ADK_CONFORMANCE_HTTP_STATUS) has no stream: stdin is its error body, and the
run ends `http-error` with the status and the server's error text (CLI-HTTP-001).

The framing avoids the seed's "split by \\n\\n" shortcut on purpose: CR and CRLF end lines too,
a split can fall inside a UTF-8 sequence or between CR and LF, and an event the body ends inside
of is never dispatched. Python's str.splitlines() is not used either: it splits at U+2028.
"""
import codecs
import json
import os
import re
import select
import sys
import time

COMPLETED = {"eof", "done-sentinel", "final-rule"}
LEGACY_ERROR = re.compile(r'^\s*\{\s*"error"\s*:\s*"([\s\S]*)"\s*\}\s*$')


def window(name, default):
    value = os.environ.get(name, "")
    return float(value) / 1000 if value else default


def emit(record):
    sys.stdout.write(json.dumps(record, ensure_ascii=False) + "\n")
    sys.stdout.flush()


class Reader:
    """The WHATWG event stream interpretation, fed decoded text in any pieces."""

    def __init__(self, on_event):
        self.on_event = on_event
        self.buffer = ""
        self.data = []
        self.event = None
        self.id = None

    def feed(self, text, at_eof=False):
        self.buffer += text
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
            self.buffer = ""  # an unterminated last line and an undispatched event are dropped

    def line(self, line):
        if line == "":
            if self.data:
                record = {"data": "\n".join(self.data)}
                if self.event:
                    record["event"] = self.event
                if self.id is not None:
                    record["id"] = self.id
                self.on_event(record)
            self.data, self.event, self.id = [], None, None
            return
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if name == "data":
            self.data.append(value)
        elif name == "event":
            self.event = value
        elif name == "id" and "\0" not in value:
            self.id = value


def parts(event):
    content = event.get("content")
    found = content.get("parts") if isinstance(content, dict) else None
    return [p for p in found if isinstance(p, dict)] if isinstance(found, list) else []


class Completion:
    """reference-impl/completion.ts, rule for rule (docs/completion.md)."""

    def __init__(self):
        self.idle = window("ADK_CONFORMANCE_IDLE_MS", 10.0)
        self.grace = window("ADK_CONFORMANCE_GRACE_MS", min(2.0, self.idle))
        self.call_idle = window("ADK_CONFORMANCE_CALL_IDLE_MS", max(300.0, self.idle))
        self.root, self.candidate, self.pending, self.anonymous = None, None, set(), 0
        self.wait = self.idle

    def waiting(self):
        self.wait = self.grace if self.candidate else self.call_idle if self.pending or self.anonymous else self.idle
        return None

    def feed(self, data):
        if data.strip() == "[DONE]":
            return "done-sentinel"
        try:
            event = json.loads(data)
        except ValueError:
            return "error-frame" if LEGACY_ERROR.match(data) else self.waiting()
        if not isinstance(event, dict):
            return self.waiting()
        if "error" in event or not event:
            return "error-frame"
        no_content = not parts(event) and event.get("errorCode") is None
        if self.candidate and no_content and event.get("id") is not None and event.get("id") == self.candidate[0]:
            return self.waiting()
        self.candidate = None
        author = event.get("author") if isinstance(event.get("author"), str) else "unknown"
        self.root = self.root or author
        calls = [p["functionCall"] for p in parts(event) if isinstance(p.get("functionCall"), dict)]
        responses = [p["functionResponse"] for p in parts(event) if isinstance(p.get("functionResponse"), dict)]
        long_running = [i for i in event.get("longRunningToolIds") or [] if isinstance(i, str)] if isinstance(event.get("longRunningToolIds"), list) else []
        if event.get("partial") is not True:
            for call in calls:
                if isinstance(call.get("id"), str) and call["id"] in long_running:
                    continue
                if isinstance(call.get("id"), str):
                    self.pending.add(call["id"])
                else:
                    self.anonymous += 1
            for response in responses:
                rid = response.get("id")
                if isinstance(rid, str) and rid in self.pending:
                    self.pending.discard(rid)
                elif self.anonymous > 0:
                    self.anonymous -= 1
        text = "".join(p["text"] for p in parts(event) if isinstance(p.get("text"), str) and p.get("thought") is not True)
        answer = event.get("partial") is not True and text and not calls and not responses and not long_running and event.get("errorCode") is None
        if answer and event.get("finishReason") == "STOP" and not self.pending and not self.anonymous:
            if author == self.root:
                self.candidate = (event.get("id"),)
            else:
                self.wait = self.idle
                return None
        return self.waiting()

    def timeout(self):
        return "final-rule" if self.candidate else "idle"


def server_message(body):
    """The error text a non-200 body holds: adk-python's `detail` (pydantic's list: its first `msg`),
    adk-js's `error`, else the body itself (Starlette's and adk-go's text/plain)."""
    try:
        value = json.loads(body)
    except ValueError:
        value = None
    if isinstance(value, dict):
        for key in ("detail", "error"):
            found = value.get(key)
            if isinstance(found, str) and found:
                return found
            if isinstance(found, list) and found and isinstance(found[0], dict) and isinstance(found[0].get("msg"), str):
                return found[0]["msg"]
    return body.strip()


def http_error(status):
    body = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    emit({"end": "http-error", "completed": False, "status": status, "error": server_message(body)})
    return 0


def main():
    status = os.environ.get("ADK_CONFORMANCE_HTTP_STATUS", "200")
    if status.isdigit() and int(status) != 200:
        return http_error(int(status))
    completion = Completion()
    ended = []

    def on_event(record):
        if ended:
            return
        emit(record)
        reason = completion.feed(record["data"])
        if reason:
            ended.append(reason)

    reader = Reader(on_event)
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    fd = sys.stdin.fileno()
    first = True
    last = time.monotonic()
    while not ended:
        remaining = completion.wait - (time.monotonic() - last)
        ready, _, _ = select.select([fd], [], [], max(0.0, remaining))
        if not ready:
            ended.append(completion.timeout())
            break
        chunk = os.read(fd, 65536)
        at_eof = chunk == b""
        text = decoder.decode(chunk, final=at_eof)
        if first and text:
            text, first = (text[1:] if text.startswith("\ufeff") else text), False
        reader.feed(text, at_eof)
        if ended:
            break
        if at_eof:
            ended.append("cut" if os.environ.get("ADK_CONFORMANCE_TRANSPORT_END") == "reset" else "eof")
            break
        last = time.monotonic()
    emit({"end": ended[0], "completed": ended[0] in COMPLETED})
    return 0


if __name__ == "__main__":
    sys.exit(main())
