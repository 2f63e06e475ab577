"""Imports examples/python-audit-bridge/bridge.py for the command mutants, wherever the kit lives."""
import os
import sys

# No __pycache__ next to the example or in the kit's install.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "examples", "python-audit-bridge"))

import bridge  # noqa: E402  (the path above must come first)
