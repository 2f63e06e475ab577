#!/usr/bin/env python3
"""Command mutant: entry_count reports the invocations held as the events held (len of the dict for
both), so the count no longer shows what the trails hold (AUD-MEM-002)."""
import sys

from load_bridge import bridge


class EntryCountWrong(bridge.AuditEventBridge):
    def entry_count(self) -> dict:
        return {"invocations": len(self._trails), "events": len(self._trails)}


sys.exit(bridge.main(EntryCountWrong))
