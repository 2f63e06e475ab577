#!/usr/bin/env python3
"""Command mutant: seed 000 §8 decision 2 as published, `if event.partial == False: clear_invocation`:
it clears on a streamed function call (`partial: false`), so the next events lose the trail of the
tools called before (AUD-CLEAR-001), and never on an event without `partial` (a model error, a
non-streaming run), which the endpoint's clear at the end of the stream makes up for."""
import sys

from load_bridge import bridge


class ClearsWhenNotPartial(bridge.AuditEventBridge):
    def observe_event(self, event) -> bool:
        if isinstance(event, dict) and event.get("partial") is False and isinstance(event.get("invocationId"), str):
            self.clear_invocation(event["invocationId"])
            return True
        return False


sys.exit(bridge.main(ClearsWhenNotPartial))
