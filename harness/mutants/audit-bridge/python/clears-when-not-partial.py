#!/usr/bin/env python3
"""Command mutant: seed 000 §8 decision 2 as published, `if event.partial == False: clear_invocation`:
it clears on a function call or tool result that is not partial (the next events lose their trail)
and never on an event without `partial` (a model error, a non-streaming run: the buffer leaks)."""
import sys

from load_bridge import bridge


class ClearsWhenNotPartial(bridge.AuditEventBridge):
    def observe_event(self, event) -> bool:
        if isinstance(event, dict) and event.get("partial") is False and isinstance(event.get("invocationId"), str):
            self.clear_invocation(event["invocationId"])
            return True
        return False


sys.exit(bridge.main(ClearsWhenNotPartial))
