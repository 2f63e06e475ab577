#!/usr/bin/env python3
"""Command mutant: a threaded server that answers each pair of pipelined requests in reverse order,
so an answer reaches the harness before the one it follows (the contract: request order)."""
import os
import sys

from load_bridge import bridge


def main() -> int:
    b = bridge.AuditEventBridge(
        bridge.bound_from_env("ADK_CONFORMANCE_AUDIT_MAX_INVOCATIONS", 1000),
        bridge.bound_from_env("ADK_CONFORMANCE_AUDIT_MAX_EVENTS_PER_INVOCATION", 1000),
    )
    pending, held = b"", []
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if not line.strip():
                continue
            held.append(bridge.answer(b, line))
            # Hold one answer back and send it after the next: a swapped pair.
            if len(held) == 2:
                sys.stdout.buffer.write(held[1] + held[0])
                held = []
        if held:
            # A lone request would wait for ever: answer it, in order (only pairs read together are swapped).
            sys.stdout.buffer.write(held.pop())
        sys.stdout.buffer.flush()
    return 0


sys.exit(main())
