#!/usr/bin/env python3
"""Command mutant: at max_events_per_invocation the Python bridge refuses new events instead of
dropping the oldest, so a long invocation's trail keeps its first events and stops changing
(AUD-TRIM-001)."""
import sys

from load_bridge import bridge


class KeepsFirstEvents(bridge.AuditEventBridge):
    def __init__(self, max_invocations: int, max_events_per_invocation: int) -> None:
        super().__init__(max_invocations, sys.maxsize)
        self.cap = max_events_per_invocation

    def record(self, event, event_type=None):
        inv = super().record(event, event_type)
        trail = self._trails[inv]
        if len(trail) > self.cap:
            trail.pop()  # the defect: the newest goes, not the oldest
            self._events -= 1
        return inv


sys.exit(bridge.main(KeepsFirstEvents))
