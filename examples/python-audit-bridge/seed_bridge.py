#!/usr/bin/env python3
"""Seed 000 §2.2A's AuditEventBridge as the seed writes it, behind the audit bridge command contract.

Exactly the seed's surface: `record_tool_invocation`, `record_tool_response`, `get_audit_trail`,
`clear_invocation`, and `get_audit_bridge()`, the session-scoped singleton §2.2B and §8 call. It
has no bound, no count and no clearing rule of its own: the enhanced endpoint clears an
invocation when its stream ends (docs/audit-bridge-contract.md "Two shapes"). The kit certifies it
as it is (MUST-compliant; AUD-CLEAR-001 passes because nothing clears before the stream ends;
AUD-EVICT-001 and AUD-TRIM-001 are untested, as it has no bound):

    npx adk-conformance run --audit-bridge-cmd "python3 examples/python-audit-bridge/seed_bridge.py"

With `--section-8` it also answers `observe_event` with seed 000 §8 decision 2's step, as the
seed's endpoint runs it after each event:

    if event.partial == False:  # Final event
        get_audit_bridge().clear_invocation(invocation_id)

which the kit certifies as passing every MUST and failing AUD-CLEAR-001 only: in streaming mode
ADK marks function calls `partial: false`, so a second tool call clears the first tool's trail
before the final answer (scenario audit_two_tools_streaming).

The only changes to the published code are the ones Python needs to run it: the dataclasses' one
defaulted field moved last ("non-default argument follows default argument"), `self` and bodies
for the methods. Python 3 standard library only.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any


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


class AuditEventBridge:
    """Buffers audit events by invocationId for SSE injection."""

    def __init__(self) -> None:
        self._buffers: dict[str, list[dict]] = {}

    def _record(self, event: Any) -> None:
        record = asdict(event) if is_dataclass(event) and not isinstance(event, type) else event
        self._buffers.setdefault(record["invocation_id"], []).append(record)

    def record_tool_invocation(self, event: ToolInvocationEvent | dict) -> None:
        self._record(event)

    def record_tool_response(self, event: ToolResponseEvent | dict) -> None:
        self._record(event)

    def get_audit_trail(self, invocation_id: str) -> list[dict]:
        return list(self._buffers.get(invocation_id, []))

    def clear_invocation(self, invocation_id: str) -> None:
        self._buffers.pop(invocation_id, None)


_bridge: AuditEventBridge | None = None


def get_audit_bridge() -> AuditEventBridge:
    global _bridge
    if _bridge is None:
        _bridge = AuditEventBridge()
    return _bridge


def section_8(event: dict) -> None:
    """Seed 000 §8 decision 2, as the seed's endpoint runs it after each event (`event.partial` of a JSON event)."""
    invocation_id = event.get("invocationId")
    if event.get("partial") == False:  # Final event  # noqa: E712  (the seed's comparison, kept as written)
        get_audit_bridge().clear_invocation(invocation_id)


def handle(request: dict, observe) -> dict:
    """One operation of the command contract to its answer; `ok: false` for what the seed's bridge has not."""
    op = request.get("op")
    bridge = get_audit_bridge()
    if op == "record_tool_invocation":
        bridge.record_tool_invocation(request["event"])
        return {}
    if op == "record_tool_response":
        bridge.record_tool_response(request["event"])
        return {}
    if op == "get_audit_trail":
        return {"trail": bridge.get_audit_trail(request["invocation_id"])}
    if op == "clear_invocation":
        bridge.clear_invocation(request["invocation_id"])
        return {}
    if op == "observe_event" and observe is not None:
        observe(request["event"])
        return {}
    raise ValueError(f"seed 000 §2.2A's AuditEventBridge has no {op!r}")


def answer(line: bytes, observe) -> bytes:
    rid = None
    try:
        request = json.loads(line)
        rid = request.get("id")
        out = {"id": rid, "ok": True, **handle(request, observe)}
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        out = {"id": rid, "ok": False, "error": str(error)}
    return (json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def main(observe=None) -> int:
    pending = b""
    out = sys.stdout.buffer
    # Read what is there, answer every complete line of it, flush once.
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        answers = [answer(line, observe) for line in lines if line.strip()]
        if answers:
            out.write(b"".join(answers))
            out.flush()
    if pending.strip():
        out.write(answer(pending, observe))
        out.flush()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(section_8 if "--section-8" in sys.argv[1:] else None))
    except BrokenPipeError:
        sys.exit(1)
