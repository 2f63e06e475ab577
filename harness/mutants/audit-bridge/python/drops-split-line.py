#!/usr/bin/env python3
"""Command mutant: the Python bridge takes each read as whole lines, so a request split across two
reads is lost (its first half dropped, its second half not JSON): the contract reads what is
available and answers every complete line of it."""
import os
import sys

from load_bridge import bridge


def main() -> int:
    b = bridge.AuditEventBridge(
        bridge.bound_from_env("ADK_CONFORMANCE_AUDIT_MAX_INVOCATIONS", 1000),
        bridge.bound_from_env("ADK_CONFORMANCE_AUDIT_MAX_EVENTS_PER_INVOCATION", 1000),
    )
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        # The defect: no carry-over of a partial line from one read to the next.
        lines = [line for line in chunk.split(b"\n") if line.strip()]
        complete = lines if chunk.endswith(b"\n") else lines[:-1]
        answers = [bridge.answer(b, line) for line in complete]
        if answers:
            sys.stdout.buffer.write(b"".join(answers))
            sys.stdout.buffer.flush()
    return 0


sys.exit(main())
