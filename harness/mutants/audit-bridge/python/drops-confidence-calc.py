#!/usr/bin/env python3
"""Command mutant: the Python bridge files only six of the 7 core types; confidence_calc entries are dropped (AUD-TRAIL-003)."""
import sys

from load_bridge import bridge


class DropsConfidenceCalc(bridge.AuditEventBridge):
    def record(self, event, event_type=None):
        # The seed's class lists the type, but this team's filing code never stores it.
        if event_type == "confidence_calc" or (isinstance(event, dict) and event.get("event_type") == "confidence_calc"):
            return str(event.get("correlation_id", "")) if isinstance(event, dict) else ""
        return super().record(event, event_type)


sys.exit(bridge.main(DropsConfidenceCalc))
