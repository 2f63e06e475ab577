"""A per-line filter (it upper-cases each line) behind the Python adapter: the adapter's own test uses it."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adapter import serve_or_run_once


def make_run(env, write):
    tag = env.get("TAG", "")
    return (lambda text: write(text.upper() + tag)), (lambda: write("END" + tag))


sys.exit(serve_or_run_once({"name": "uppercase", "version": "1.0.0", "language": "python", "parts": ["transformer"]}, make_run))
