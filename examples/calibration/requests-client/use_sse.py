"""A POST SSE client in Python, written the way Python teams write seed 004's "POST SSE Client":
`requests.post(..., stream=True)` and `iter_lines(decode_unicode=True)`, each `data:` line handed
on ("Parse SSE stream manually (split by `\\n\\n`, extract `data:` lines)"), with requests'
defaults. The request is seed 004's curl test as `json=`. Calibration material
(docs/calibration.md): its defects are kept on purpose.
"""
import requests


def stream_run_sse(url, body, on_event):
    with requests.post(url, json=body, stream=True) as response:
        response.raise_for_status()
        for line in response.iter_lines(decode_unicode=True):
            if line and line.startswith("data:"):
                on_event(line[5:].strip())
