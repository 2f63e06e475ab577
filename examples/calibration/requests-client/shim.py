"""The Python half of the module shim: the request JSON on stdin, the base URL as argv[1]; each
event the client hands over is a record on stdout; return is `eof`, an HTTPError `http-error`,
any other exception `cut`. No logic of its own."""
import json
import sys

import requests

from use_sse import stream_run_sse


def emit(record):
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


try:
    stream_run_sse(sys.argv[1] + "/run_sse", json.load(sys.stdin), lambda data: emit({"data": data}))
    emit({"end": "eof", "completed": True})
except requests.HTTPError as error:
    emit({"end": "http-error", "status": error.response.status_code, "completed": False})
except Exception:
    emit({"end": "cut", "completed": False})
