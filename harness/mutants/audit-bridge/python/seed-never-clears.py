#!/usr/bin/env python3
"""Command mutant: examples/python-audit-bridge/seed_bridge.py (seed 000 §2.2A's shape) whose
clear_invocation forgets nothing, so every ended invocation's trail stays (no bound either)."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-audit-bridge"))

import seed_bridge  # noqa: E402  (the path above must come first)

seed_bridge.AuditEventBridge.clear_invocation = lambda self, invocation_id: None
sys.exit(seed_bridge.main())
