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

Session form (docs/session-protocol.md): started with ADK_CONFORMANCE_PROTOCOL=session, one
process reads every run, as a client object reused for every turn does; each run has its own
decoder, reader and completion clock, and the process waits on stdin with the nearest deadline of
its open runs.

The framing avoids the seed's "split by \\n\\n" shortcut on purpose: CR and CRLF end lines too,
a split can fall inside a UTF-8 sequence or between CR and LF, and an event the body ends inside
of is never dispatched. Python's str.splitlines() is not used either: it splits at U+2028.
"""
import base64
import codecs
import json
import os
import re
import select
import sys
import time

COMPLETED = {"eof", "done-sentinel", "final-rule"}
LINE_END = re.compile(r"\r\n|\r|\n")
LEGACY_ERROR = re.compile(r'^\s*\{\s*"error"\s*:\s*"([\s\S]*)"\s*\}\s*$')


def window(env, name, default):
    value = env.get(name, "")
    return float(value) / 1000 if value else default


def emit(record, write=None):
    """Report one record: on stdout (one-shot form), or as the run's line (session form)."""
    line = json.dumps(record, ensure_ascii=False)
    if write is not None:
        write(line)
        return
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def new_decoder():
    """One UTF-8 decoder per run: bytes a run ended inside of never reach the next one."""
    return codecs.getincrementaldecoder("utf-8")(errors="replace")


class Reader:
    """The WHATWG event stream interpretation, fed decoded text in any pieces."""

    def __init__(self, on_event):
        self.on_event = on_event
        self.pending = []  # the pieces of the line being read: joined once, when it ends
        self.after_cr = False
        self.data = []
        self.event = None
        self.id = None

    def feed(self, text, at_eof=False):
        # Only the new text is searched and the pieces of an unfinished line are joined once, at its
        # end: a 3 MB line arriving in 1 KB pieces cost 19 s of CPU when each piece was appended to
        # one buffer searched from its start (CI of stop 49, framing_huge_event).
        if self.after_cr and text:
            text, self.after_cr = (text[1:] if text[0] == "\n" else text), False  # the LF of a CRLF split between pieces
        start = 0
        for end in LINE_END.finditer(text):
            self.pending.append(text[start:end.start()])
            line, self.pending = "".join(self.pending), []
            self.line(line)
            start = end.end()
        if start < len(text):
            self.pending.append(text[start:])
        elif text.endswith("\r"):
            self.after_cr = True
        if at_eof:
            self.pending = []  # an unterminated last line and an undispatched event are dropped

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

    def __init__(self, env):
        self.idle = window(env, "ADK_CONFORMANCE_IDLE_MS", 10.0)
        self.grace = window(env, "ADK_CONFORMANCE_GRACE_MS", min(2.0, self.idle))
        self.call_idle = window(env, "ADK_CONFORMANCE_CALL_IDLE_MS", max(300.0, self.idle))
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


class Run:
    """One run: its answer's status, its own decoder, reader and completion clock. `write` is
    where its records go (None: stdout)."""

    def __init__(self, env, write=None):
        self.env, self.write = env, write
        status = env.get("ADK_CONFORMANCE_HTTP_STATUS", "200")
        self.status = int(status) if status.isdigit() and int(status) != 200 else None
        self.error_body = b""
        self.completion = Completion(env)
        self.decoder = new_decoder()
        self.reader = Reader(self.on_event)
        self.first = True
        self.ended = None
        self.last = time.monotonic()

    def on_event(self, record):
        if self.ended:
            return
        emit(record, self.write)
        reason = self.completion.feed(record["data"])
        if reason:
            self.ended = reason

    def deadline(self):
        """When silence ends the run (None: only its input's end does: a non-200 answer's body)."""
        return None if self.status is not None else self.last + self.completion.wait

    def feed(self, chunk):
        """The next bytes of the body (b"": its end). True once the run is over and its end record written."""
        at_eof = chunk == b""
        if self.status is not None:
            self.error_body += chunk
            if at_eof:
                body = self.error_body.decode("utf-8", errors="replace")
                emit({"end": "http-error", "completed": False, "status": self.status, "error": server_message(body)}, self.write)
            return at_eof
        text = self.decoder.decode(chunk, final=at_eof)
        if self.first and text:
            text, self.first = (text[1:] if text.startswith("\ufeff") else text), False
        self.reader.feed(text, at_eof)
        if not self.ended and at_eof:
            self.ended = "cut" if self.env.get("ADK_CONFORMANCE_TRANSPORT_END") == "reset" else "eof"
        self.last = time.monotonic()
        if self.ended:
            self.finish()
        return self.ended is not None

    def timeout(self):
        self.ended = self.completion.timeout()
        self.finish()

    def finish(self):
        emit({"end": self.ended, "completed": self.ended in COMPLETED}, self.write)


def serve_session():
    """docs/session-protocol.md: one process, many runs, each with its own Run."""
    def send(message):
        sys.stdout.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()

    runs = {}
    fd, buffer = sys.stdin.fileno(), b""

    def over(run):
        runs.pop(run, None)
        send({"run": run, "exit": 0})

    while True:
        due = [d for d in (r.deadline() for r in runs.values()) if d is not None]
        ready, _, _ = select.select([fd], [], [], max(0.0, min(due) - time.monotonic()) if due else None)
        if not ready:
            now = time.monotonic()
            for run, r in list(runs.items()):
                if r.deadline() is not None and now >= r.deadline():
                    r.timeout()
                    over(run)
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            return 0
        buffer += chunk
        *lines, buffer = buffer.split(b"\n")
        for raw in lines:
            if not raw.strip():
                continue
            m = json.loads(raw)
            cmd, run = m.get("cmd"), m.get("run")
            if cmd == "start":
                send({"cmd": "ready", "protocol": 1, "implementation": {
                    "name": "python-client", "version": "1.0.0", "language": "python", "parts": ["client"]}})
            elif cmd == "open":
                runs[run] = Run(m.get("env") or {}, lambda line, run=run: send({"run": run, "line": line}))
            elif cmd == "input" and run in runs:
                data = base64.b64decode(m["bytes"]) if "bytes" in m else (m.get("text", "") + "\n").encode("utf-8")
                if data and runs[run].feed(data):
                    over(run)
            elif cmd == "end" and run in runs:
                runs[run].feed(b"")
                over(run)
            elif cmd == "cancel":
                runs.pop(run, None)
            elif cmd == "stop":
                return 0


def main():
    if os.environ.get("ADK_CONFORMANCE_PROTOCOL") == "session":
        return serve_session()
    run = Run(os.environ)
    fd = sys.stdin.fileno()
    while True:
        deadline = run.deadline()
        ready, _, _ = select.select([fd], [], [], None if deadline is None else max(0.0, deadline - time.monotonic()))
        if not ready:
            run.timeout()
            return 0
        if run.feed(os.read(fd, 65536)):
            return 0


if __name__ == "__main__":
    sys.exit(main())
