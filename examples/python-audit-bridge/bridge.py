#!/usr/bin/env python3
"""Seed 000 §2.2A's AuditEventBridge, made compliant, behind the audit bridge command contract.

The bridge buffers audit events by ADK invocation id so the enhanced SSE endpoint can inject the
trail recorded so far into each event as `_audit_metadata` (seed 000 §2.2B), and frees an
invocation when its final event passes (§8 decision 2). Run as a script, it speaks the NDJSON
command contract of docs/audit-bridge-contract.md: one JSON operation per stdin line, one JSON
answer per stdout line, in order. Python 3 standard library only.

    npx adk-conformance run --audit-bridge-cmd "python3 examples/python-audit-bridge/bridge.py"

README.md in this folder lists where seed 000's published code had to change, and why.
"""

from __future__ import annotations

import json
import os
import sys
from collections import OrderedDict, deque
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any

# The 7 core types of seed 000 §3.1; each has a record_<type> method and op.
AUDIT_EVENT_TYPES = ("tool_invocation", "tool_response", "tool_error", "mcp_fetch", "data_load", "reasoning_step", "confidence_calc")


# Seed 000 §2.2A's dataclasses. Published with `event_type: str = "..."` first, which Python
# refuses ("non-default argument follows default argument"); the default now comes last.
@dataclass
class ToolInvocationEvent:
    timestamp: str
    agent: str
    tool: str
    parameters: dict
    invocation_id: str
    session_id: str
    event_type: str = "tool_invocation"


@dataclass
class ToolResponseEvent:
    timestamp: str
    agent: str
    tool: str
    status: str
    confidence: float
    data_sources: list[str] = field(default_factory=list)
    reasoning_chain: list[str] = field(default_factory=list)
    invocation_id: str = ""
    event_type: str = "tool_response"


@dataclass
class ToolErrorEvent:
    """§7 "captures all tool invocations/responses/errors": the seed has no class for errors."""
    timestamp: str
    agent: str
    tool: str
    error: str
    invocation_id: str
    event_type: str = "tool_error"


class AuditError(ValueError):
    """An event the bridge cannot file (the answer is `ok: false` with this text)."""


def invocation_of(event: dict) -> str | None:
    """`invocation_id` (§2.2A, §9), else `correlation_id` (the §3.2 envelope)."""
    for key in ("invocation_id", "correlation_id"):
        value = event.get(key)
        if isinstance(value, str) and value:
            return value
    return None


def is_final_event(event: Any) -> bool:
    """The invocation's final event: adk-python's is_final_response(), not the seed's `partial == False`.

    `partial == False` clears on every function call and tool result (the next events lose their
    trail) and never in non-streaming mode, where `partial` is absent (the buffer leaks).
    """
    if not isinstance(event, dict):
        return False
    inv = event.get("invocationId")
    if not isinstance(inv, str) or not inv or event.get("partial") is True:
        return False
    actions = event.get("actions") if isinstance(event.get("actions"), dict) else {}
    if actions.get("skipSummarization") is True:
        return True
    long_running = event.get("longRunningToolIds")
    if isinstance(long_running, list) and long_running:
        return True
    content = event.get("content") if isinstance(event.get("content"), dict) else {}
    parts = [p for p in content.get("parts") or [] if isinstance(p, dict)] if isinstance(content.get("parts"), list) else []
    if any("functionCall" in p or "functionResponse" in p for p in parts):
        return False
    has_text = any(isinstance(p.get("text"), str) and p.get("thought") is not True for p in parts)
    if has_text and isinstance(event.get("finishReason"), str):
        return True
    return isinstance(event.get("errorCode"), str)


class AuditEventBridge:
    """Buffers audit events by invocationId for SSE injection, within two bounds.

    The final event is not guaranteed to arrive (a cut stream, a client that leaves), so memory is
    bounded twice: at most `max_invocations` invocations (the least recently recorded-to is
    evicted) and `max_events_per_invocation` events each (the oldest is dropped).
    """

    def __init__(self, max_invocations: int = 1000, max_events_per_invocation: int = 1000) -> None:
        if max_invocations < 1 or max_events_per_invocation < 1:
            raise ValueError("both bounds must be positive integers")
        self.max_invocations = max_invocations
        self.max_events_per_invocation = max_events_per_invocation
        self._trails: OrderedDict[str, deque] = OrderedDict()
        self._events = 0

    # Seed 000 §2.2A's methods (published without `self` and without bodies).
    def record_tool_invocation(self, event: ToolInvocationEvent | dict) -> str:
        return self.record(event, "tool_invocation")

    def record_tool_response(self, event: ToolResponseEvent | dict) -> str:
        return self.record(event, "tool_response")

    def record_tool_error(self, event: ToolErrorEvent | dict) -> str:
        return self.record(event, "tool_error")

    def record_mcp_fetch(self, event: dict) -> str:
        return self.record(event, "mcp_fetch")

    def record_data_load(self, event: dict) -> str:
        return self.record(event, "data_load")

    def record_reasoning_step(self, event: dict) -> str:
        return self.record(event, "reasoning_step")

    def record_confidence_calc(self, event: dict) -> str:
        return self.record(event, "confidence_calc")

    def record(self, event: Any, event_type: str | None = None) -> str:
        """File one audit event under its invocation; returns the invocation id."""
        record = asdict(event) if is_dataclass(event) and not isinstance(event, type) else event
        if not isinstance(record, dict):
            raise AuditError(f"expected an audit event object (seed 000 §3.2), got {type(record).__name__}")
        if event_type is not None and record.get("event_type", event_type) != event_type:
            raise AuditError(f"record_{event_type} got a {record.get('event_type')!r} event")
        if "event_type" not in record and event_type is not None:
            record = {**record, "event_type": event_type}
        if not isinstance(record.get("event_type"), str) or not record["event_type"]:
            raise AuditError("the event has no event_type (seed 000 §3.1)")
        inv = invocation_of(record)
        if inv is None:
            raise AuditError("the event names no invocation: set correlation_id (§3.2) or invocation_id (§2.2A)")
        trail = self._trails.get(inv)
        if trail is None:
            if len(self._trails) >= self.max_invocations:
                self._evict_oldest()
            trail = deque()
            self._trails[inv] = trail
        else:
            self._trails.move_to_end(inv)
        trail.append(record)
        self._events += 1
        if len(trail) > self.max_events_per_invocation:
            trail.popleft()
            self._events -= 1
        return inv

    def _evict_oldest(self) -> None:
        _, dropped = self._trails.popitem(last=False)
        self._events -= len(dropped)

    def get_audit_trail(self, invocation_id: str) -> list[dict]:
        return list(self._trails.get(invocation_id, ()))

    def clear_invocation(self, invocation_id: str) -> bool:
        trail = self._trails.pop(invocation_id, None)
        if trail is None:
            return False
        self._events -= len(trail)
        return True

    def observe_event(self, event: Any) -> bool:
        """Called after each ADK event was sent (§8 decision 2): clears on the final one."""
        if not is_final_event(event):
            return False
        self.clear_invocation(event["invocationId"])
        return True

    def entry_count(self) -> dict:
        return {"invocations": len(self._trails), "events": self._events}


def handle(bridge: AuditEventBridge, request: dict) -> dict:
    """One operation of the command contract to its answer (without the id)."""
    op = request.get("op")
    if op == "start":
        # The handshake (docs/audit-bridge-contract.md "Handshake"): who this bridge is.
        return {"ready": True, "protocol": 1, "implementation": {"name": "adk-conformance example audit bridge", "version": "0.1.0", "language": "python", "parts": ["audit-bridge"]}}
    if isinstance(op, str) and op.startswith("record"):
        kind = op[len("record_"):] if op != "record" else None
        if kind is not None and kind not in AUDIT_EVENT_TYPES:
            raise AuditError(f"unknown op {op!r}")
        return {"invocation_id": bridge.record(request.get("event"), kind)}
    if op == "get_audit_trail":
        return {"trail": bridge.get_audit_trail(str(request.get("invocation_id")))}
    if op == "clear_invocation":
        return {"cleared": bridge.clear_invocation(str(request.get("invocation_id")))}
    if op == "observe_event":
        return {"cleared": bridge.observe_event(request.get("event"))}
    if op == "entry_count":
        return bridge.entry_count()
    raise AuditError(f"unknown op {op!r}")


def answer(bridge: AuditEventBridge, line: bytes) -> bytes:
    rid = None
    try:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise AuditError("a request is a JSON object")
        rid = request.get("id")
        out = {"id": rid, "ok": True, **handle(bridge, request)}
    except (AuditError, ValueError, TypeError) as error:
        out = {"id": rid, "ok": False, "error": str(error)}
    return (json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def bound_from_env(name: str, default: int) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.strip() else default


def main(make_bridge=AuditEventBridge) -> int:
    bridge = make_bridge(
        bound_from_env("ADK_CONFORMANCE_AUDIT_MAX_INVOCATIONS", 1000),
        bound_from_env("ADK_CONFORMANCE_AUDIT_MAX_EVENTS_PER_INVOCATION", 1000),
    )
    pending = b""
    out = sys.stdout.buffer
    # Read what is there, answer every complete line of it, flush once: a pipelined caller gets its
    # answers in one write, and no answer ever waits for more input.
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        answers = [answer(bridge, line) for line in lines if line.strip()]
        if answers:
            out.write(b"".join(answers))
            out.flush()
    if pending.strip():
        out.write(answer(bridge, pending))
        out.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:
        sys.exit(1)
