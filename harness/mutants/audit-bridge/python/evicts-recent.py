#!/usr/bin/env python3
"""Command mutant: at max_invocations the Python bridge evicts the invocation recorded to most
recently (`popitem(last=True)`, a one-character slip from the least recently recorded-to): the
invocation still being recorded to loses its trail (AUD-EVICT-001)."""
import sys

from load_bridge import bridge


class EvictsRecent(bridge.AuditEventBridge):
    def _evict_oldest(self) -> None:
        _, dropped = self._trails.popitem(last=True)
        self._events -= len(dropped)


sys.exit(bridge.main(EvictsRecent))
