#!/usr/bin/env python3
"""Command mutant: examples/python-audit-bridge/seed_bridge.py (seed 000 §2.2A's shape) with seed
000 §8 decision 2's step as its `observe_event`, `if event.partial == False: clear_invocation`.
In streaming mode a function call is `partial: false`, so the first tool's trail is cleared
before the final answer: AUD-CLEAR-001 fails, every MUST passes (the endpoint's clear at the end
of each stream keeps memory bounded)."""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-audit-bridge"))

import seed_bridge  # noqa: E402  (the path above must come first)

sys.exit(seed_bridge.main(seed_bridge.section_8))
