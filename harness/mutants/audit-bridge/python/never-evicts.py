#!/usr/bin/env python3
"""Command mutant: the Python bridge ignores both bounds, so cut invocations pile up (AUD-MEM-002)."""
import sys

from load_bridge import bridge


class NeverEvicts(bridge.AuditEventBridge):
    def __init__(self, max_invocations: int, max_events_per_invocation: int) -> None:
        super().__init__(sys.maxsize, sys.maxsize)


sys.exit(bridge.main(NeverEvicts))
