"""One exchange with the ADK upstream's /run_sse: connect, stream, and classify how it ended.

Seed 004's generator, made compliant:

- `httpx.Timeout(None)`: no connect/read/write/pool timeout at all; the TOTAL limit
  (GATEWAY_TIMEOUT_MS) is enforced around the whole exchange (its task is cancelled), so a silence
  between events shorter than the total never ends the stream (seed: "300s timeout with no read
  timeout (allows LLM processing gaps)"). The seed's `httpx.Timeout(300.0, read=None)` is a
  per-phase timeout and never bounds the stream's total time.
- `aiter_raw()`: the bytes exactly as they arrive, one chunk per network read, no decoding, no
  line splitting (the seed's `aiter_lines()` + `f"{line}\\n"` rewrites CRLF/CR to LF, and loses a
  final line end).
- a fresh connection per run (no keep-alive pool) and `trust_env=False` (no proxy from the
  environment); the request carries only content-type, accept, accept-encoding: identity and
  content-length (plus httpx's host/user-agent/connection): never the client's Authorization
  or cookies.
- no `raise_for_status()`: a 4xx/5xx becomes the documented status frame, not an exception
  swallowed after the 200 went out.
"""
from __future__ import annotations

import asyncio
import json
import ssl
import time
from http import HTTPStatus
from typing import Any, Awaitable, Callable, Dict, Optional, Tuple

import httpx

UPSTREAM_HEADERS = {
    "content-type": "application/json",
    "accept": "text/event-stream",
    "accept-encoding": "identity",
}

_SSL_CONTEXT: Optional[ssl.SSLContext] = None


def _ssl_context() -> ssl.SSLContext:
    # Built once: httpx would otherwise load the CA bundle for every client (tens of ms each).
    global _SSL_CONTEXT
    if _SSL_CONTEXT is None:
        _SSL_CONTEXT = ssl.create_default_context()
    return _SSL_CONTEXT


def frame(obj: Dict[str, Any]) -> bytes:
    """`data: <json>\\n\\n` with Python json.dumps text (', ' and ': ', non-ASCII as \\uXXXX)."""
    return b"data: " + json.dumps(obj).encode("ascii") + b"\n\n"


def _seconds_text(timeout_ms: int) -> str:
    if timeout_ms % 1000 == 0:
        return str(timeout_ms // 1000)
    return repr(timeout_ms / 1000)


def timeout_message(timeout_ms: int) -> str:
    return f"Request timeout after {_seconds_text(timeout_ms)} seconds"


def timeout_frame(timeout_ms: int) -> Dict[str, Any]:
    return {"error": timeout_message(timeout_ms), "error_code": "TIMEOUT", "timestamp": time.time()}


def stream_error_frame(message: str) -> Dict[str, Any]:
    return {"error": message, "error_code": "STREAM_ERROR", "timestamp": time.time()}


def status_detail(code: int, reason_phrase: str, body: bytes) -> str:
    text = body.decode("utf-8", "replace")
    try:
        parsed = json.loads(text) if text.strip() else None
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        d = parsed.get("detail")
        if isinstance(d, str):
            return d
        if d is not None:
            return json.dumps(d, separators=(",", ":"), ensure_ascii=False)
        if isinstance(parsed.get("error"), str):
            return parsed["error"]
    if text:
        return text[:4096]
    if reason_phrase:
        return reason_phrase
    try:
        return HTTPStatus(code).phrase
    except ValueError:
        return f"HTTP {code}"


def status_frame(code: int, detail: str) -> Dict[str, Any]:
    return {"error": f"ADK upstream error: {code}", "status_code": code, "detail": detail, "timestamp": time.time()}


def describe(e: BaseException) -> str:
    parts = []
    seen = set()
    cur: Optional[BaseException] = e
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        s = str(cur).strip()
        if s and s not in parts:
            parts.append(s)
        cur = cur.__cause__ or cur.__context__
    return "; ".join(parts) if parts else type(e).__name__


# (kind, frame): kind is "eof" (normal end, no frame), "status", "timeout" or "error".
Outcome = Tuple[str, Optional[Dict[str, Any]]]

_STATUS_BODY_LIMIT = 64 * 1024


async def exchange(url: str, body: bytes, timeout_ms: int, on_chunk: Callable[[bytes], Awaitable[None]]) -> Outcome:
    """The whole exchange under the TOTAL timeout (GATEWAY_TIMEOUT_MS); no other timeout anywhere.

    The exchange runs as its own task and is cancelled when the total time is up: the outcome is
    then TIMEOUT whatever the cancellation turned into inside httpx/anyio (asyncio.timeout() is
    not used because anyio's cancel scopes in httpcore can turn its expiry into a bare
    CancelledError). A cancellation from outside (the client left) cancels the exchange too, which
    closes the upstream connection before this returns.
    """
    task = asyncio.ensure_future(_exchange(url, body, on_chunk))
    try:
        await asyncio.wait((task,), timeout=timeout_ms / 1000)
    except asyncio.CancelledError:
        task.cancel()
        await asyncio.wait((task,))
        raise
    if not task.done():
        task.cancel()
        await asyncio.wait((task,))
    if task.cancelled():
        return ("timeout", timeout_frame(timeout_ms))
    return task.result()


async def _exchange(url: str, body: bytes, on_chunk: Callable[[bytes], Awaitable[None]]) -> Outcome:
    answered = False
    try:
        transport = httpx.AsyncHTTPTransport(verify=_ssl_context(), retries=0)
        async with httpx.AsyncClient(transport=transport, timeout=httpx.Timeout(None), trust_env=False, follow_redirects=False) as client:
            async with client.stream("POST", url, content=body, headers=UPSTREAM_HEADERS) as resp:
                answered = True
                code = resp.status_code
                if 200 <= code < 300:
                    async for chunk in resp.aiter_raw():
                        if chunk:
                            await on_chunk(chunk)
                    return ("eof", None)
                if 400 <= code < 600:
                    buf = bytearray()
                    async for chunk in resp.aiter_bytes():
                        buf += chunk
                        if len(buf) >= _STATUS_BODY_LIMIT:
                            break
                    return ("status", status_frame(code, status_detail(code, resp.reason_phrase, bytes(buf))))
                return ("error", stream_error_frame(f"ADK upstream answered HTTP {code}, not a 2xx stream"))
    except Exception as e:  # noqa: BLE001 - every transport failure becomes the one STREAM_ERROR frame
        prefix = "ADK upstream stream broken" if answered else "ADK upstream connection failed"
        return ("error", stream_error_frame(f"{prefix}: {describe(e)}"))
