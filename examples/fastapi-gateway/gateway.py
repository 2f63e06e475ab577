#!/usr/bin/python3
"""Seed 004's canonical `POST /run_sse` gateway in the seed's own stack: FastAPI + httpx + PyJWT on uvicorn.

An independent implementation written from the kit's public docs (docs/gateway.md,
docs/harness-gateway.md, docs/requirements.md, docs/error-codes.md) and seed 004 itself; see
README.md in this folder for how to run and certify it, and for every place where seed 004's
published gateway code had to change to comply.

    /usr/bin/python3 examples/fastapi-gateway/gateway.py            # settings from the environment
    /usr/bin/python3 examples/fastapi-gateway/gateway.py --port 8000 --upstream http://127.0.0.1:8080 --enable-canonical

Standard library + fastapi, uvicorn, httpx, PyJWT (Debian: python3-fastapi python3-uvicorn
python3-httpx python3-jwt).
"""
from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import socket
import sys
from typing import Any, Dict, List, Optional, Set, Tuple

# The sibling modules are imported from this folder; leave no __pycache__ in the working tree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import uvicorn  # noqa: E402
from fastapi import FastAPI, Request  # noqa: E402
from fastapi.responses import JSONResponse  # noqa: E402
from starlette.exceptions import HTTPException as StarletteHTTPException  # noqa: E402
from starlette.requests import ClientDisconnect  # noqa: E402
from starlette.responses import Response  # noqa: E402

import auth  # noqa: E402
import model  # noqa: E402
import upstream  # noqa: E402
from config import Config, ConfigError, read_config  # noqa: E402
from legacy import LegacyRuns, Reader  # noqa: E402
from sse_framing import LineState  # noqa: E402

FLAG_DETAIL = "ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint."

# Seed 004 § HTTP Headers, each exactly once; uvicorn adds only Date and Transfer-Encoding
# (server_header=False). No charset: Starlette's StreamingResponse(media_type="text/event-stream")
# would append "; charset=utf-8", so the headers are written here as a raw ASGI start message.
SSE_HEADERS: List[Tuple[bytes, bytes]] = [
    (b"Content-Type", b"text/event-stream"),
    (b"Cache-Control", b"no-cache"),
    (b"Connection", b"keep-alive"),
    (b"X-Accel-Buffering", b"no"),
]


def refusal(status: int, code: str, reason: str, extra: Optional[Dict[str, Any]] = None, headers: Optional[Dict[str, str]] = None) -> JSONResponse:
    from http import HTTPStatus

    body: Dict[str, Any] = {"error": HTTPStatus(status).phrase, "code": code, "reason": reason}
    if extra:
        body.update(extra)
    return JSONResponse(body, status_code=status, headers=headers)


def unauthorized(failure: auth.AuthFailure) -> JSONResponse:
    desc = failure.reason.replace("\\", "\\\\").replace('"', "'").encode("latin-1", "replace").decode("latin-1")
    return refusal(401, failure.code, failure.reason, headers={"WWW-Authenticate": f'Bearer error="invalid_token", error_description="{desc}"'})


async def _wait_disconnect(receive: Any) -> None:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return


class Gateway:
    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.stats = {"open": 0, "opened": 0, "completed": 0, "closedByClient": 0, "timedOut": 0, "upstreamStatus": 0, "streamErrors": 0}
        self.live: Set[asyncio.Future] = set()      # pumps of open streams (cancelled on shutdown)
        self.readers: Set[Reader] = set()           # legacy GET readers (woken on shutdown)
        self.shutting_down = False
        self.legacy = LegacyRuns(cfg, cfg.upstream + "/run_sse")

    def shutdown(self) -> None:
        self.shutting_down = True
        for pump in list(self.live):
            pump.cancel()
        for r in list(self.readers):
            r.wake.set()
        self.legacy.shutdown()


class SseProxyResponse(Response):
    """POST /run_sse's answer: 200 + headers at once, then the upstream's bytes as they arrive."""

    def __init__(self, gw: Gateway, url: str, body: bytes) -> None:  # noqa: D107 - no Response.__init__: nothing is rendered
        self.gw = gw
        self.url = url
        self.body_bytes = body
        self.status_code = 200
        self.background = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        gw = self.gw
        st = gw.stats
        st["open"] += 1
        st["opened"] += 1
        await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
        pump = asyncio.ensure_future(self._pump(send))
        watch = asyncio.ensure_future(_wait_disconnect(receive))
        gw.live.add(pump)
        try:
            await asyncio.wait((pump, watch), return_when=asyncio.FIRST_COMPLETED)
        finally:
            gw.live.discard(pump)
            watch.cancel()
            if not pump.done():
                # The client left: abort the upstream request now (its connection is closed as
                # the cancelled httpx stream unwinds) and write nothing more.
                st["closedByClient"] += 1
                pump.cancel()
            await asyncio.wait((pump,))
            st["open"] -= 1
        if pump.cancelled() and gw.shutting_down:
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def _pump(self, send: Any) -> None:
        lines = LineState()

        async def write(chunk: bytes) -> None:
            lines.feed(chunk)
            await send({"type": "http.response.body", "body": chunk, "more_body": True})

        kind, fr = await upstream.exchange(self.url, self.body_bytes, self.gw.cfg.timeout_ms, write)
        st = self.gw.stats
        if kind == "eof":
            st["completed"] += 1
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return
        st[{"timeout": "timedOut", "status": "upstreamStatus"}.get(kind, "streamErrors")] += 1
        assert fr is not None
        # Close whatever line/event the client already has, then exactly one terminal frame, then the end.
        await send({"type": "http.response.body", "body": lines.closing_bytes() + upstream.frame(fr), "more_body": False})


class LegacyStreamResponse(Response):
    def __init__(self, gw: Gateway, run: Any, last_event_id: Optional[int]) -> None:  # noqa: D107
        self.gw = gw
        self.run = run
        self.last_event_id = last_event_id
        self.status_code = 200
        self.background = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        gw, run = self.gw, self.run
        reader, held = gw.legacy.attach(run, self.last_event_id)
        gw.readers.add(reader)
        watch = asyncio.ensure_future(_wait_disconnect(receive))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
            done = False
            for _, data, final in held:
                await send({"type": "http.response.body", "body": data, "more_body": True})
                if final:
                    done = True
                    break
            last = held[-1][0] if held else (self.last_event_id or 0)
            while not done and not watch.done() and not gw.shutting_down:
                while reader.queue:
                    eid, data, final = reader.queue.popleft()
                    reader.behind -= len(data)
                    if eid <= last:
                        continue
                    last = eid
                    await send({"type": "http.response.body", "body": data, "more_body": True})
                    if final:
                        done = True
                        break
                if done or reader.overflow:
                    break
                reader.wake.clear()
                waiter = asyncio.ensure_future(reader.wake.wait())
                await asyncio.wait((waiter, watch), return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
            if not watch.done():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watch.cancel()
            gw.readers.discard(reader)
            gw.legacy.detach(run, reader)


def build_app(cfg: Config) -> FastAPI:
    gw = Gateway(cfg)
    app = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    app.state.gateway = gw

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code in (404, 405):
            return refusal(404, "GW_NOT_FOUND", f"no route {request.method} {request.url.path}")
        return refusal(exc.status_code, "GW_INTERNAL", str(exc.detail))

    @app.exception_handler(Exception)
    async def _internal(request: Request, exc: Exception) -> JSONResponse:
        return refusal(500, "GW_INTERNAL", f"{type(exc).__name__}: {exc}")

    # ---------------------------------------------------------------- access checks

    def authenticate(request: Request, source: str) -> Tuple[Optional[Dict[str, Any]], Optional[Response]]:
        """(claims, None) or (None, 401). source: "header", "cookie" or "header-or-cookie"."""
        if cfg.allow_unauthenticated:
            return {}, None
        try:
            if source == "cookie":
                token = request.cookies.get(cfg.auth_cookie)
                if not token:
                    raise auth.AuthFailure("GW_AUTH_MISSING", f"missing {cfg.auth_cookie} cookie")
            elif source == "header-or-cookie" and request.headers.get("authorization") is None:
                token = request.cookies.get(cfg.auth_cookie)
                if not token:
                    raise auth.AuthFailure("GW_AUTH_MISSING", "missing bearer token")
            else:
                token = auth.bearer_from_header(request.headers.get("authorization"))
            return auth.verify_token(cfg, token), None
        except auth.AuthFailure as f:
            return None, unauthorized(f)

    def csrf(request: Request) -> Optional[Response]:
        peer = request.client.host if request.client else None
        failed = auth.csrf_failure(cfg, peer, request.headers, request.cookies)
        return refusal(403, failed[0], failed[1]) if failed else None

    async def read_json(request: Request) -> Tuple[Any, Optional[Response]]:
        ctype = request.headers.get("content-type")
        media = (ctype or "").split(";", 1)[0].strip().lower()
        if media != "application/json":
            return None, refusal(415, "GW_UNSUPPORTED_MEDIA_TYPE", f"Content-Type must be application/json (got {ctype or 'none'})")
        limit = cfg.body_limit
        declared = request.headers.get("content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > limit:
            return None, refusal(413, "GW_BODY_TOO_LARGE", f"body of {int(declared)} bytes exceeds GATEWAY_BODY_LIMIT_BYTES ({limit})")
        buf = bytearray()
        try:
            async for chunk in request.stream():
                buf += chunk
                if len(buf) > limit:
                    return None, refusal(413, "GW_BODY_TOO_LARGE", f"body exceeds GATEWAY_BODY_LIMIT_BYTES ({limit})")
        except ClientDisconnect:
            return None, refusal(400, "GW_MALFORMED_JSON", "the client left before sending the whole body")
        try:
            return model.parse_json(bytes(buf)), None
        except model.BadJson as e:
            return None, refusal(400, "GW_MALFORMED_JSON", str(e))

    def invalid(issues: List[Dict[str, str]]) -> JSONResponse:
        return refusal(422, "GW_INVALID_REQUEST", model.first_reason(issues), extra={"issues": issues})

    # ---------------------------------------------------------------- canonical routes

    async def canonical(request: Request, upstream_path: str, token_source: str) -> Response:
        # Order (docs/gateway.md § Routes): flag 501 -> JWT 401 -> CSRF 403 -> body 415/413/400/422.
        if not cfg.canonical_enabled:
            return JSONResponse({"detail": FLAG_DETAIL}, status_code=501)
        _, denied = authenticate(request, token_source)
        if denied:
            return denied
        denied = csrf(request)
        if denied:
            return denied
        body, bad = await read_json(request)
        if bad:
            return bad
        issues = model.validate(body)
        if issues:
            return invalid(issues)
        return SseProxyResponse(gw, cfg.upstream + upstream_path, model.encode_upstream(body))

    @app.post("/run_sse")
    async def run_sse(request: Request) -> Response:
        return await canonical(request, "/run_sse", "header")

    @app.post("/run_sse_enhanced")
    async def run_sse_enhanced(request: Request) -> Response:
        return await canonical(request, "/run_sse_enhanced", "header")

    @app.post("/api/sse/run_sse")
    async def cookie_proxy(request: Request) -> Response:
        # Seed 004 § Frontend SSE Proxy Pattern: the token comes from the HttpOnly cookie and goes
        # upstream... nowhere: the gateway verifies it and the ADK server gets no credentials at all.
        return await canonical(request, "/run_sse", "cookie")

    # ---------------------------------------------------------------- legacy two-step

    @app.post("/apps/{app_name}/users/{user_id}/sessions/{session_id}/run")
    async def legacy_start(app_name: str, user_id: str, session_id: str, request: Request) -> Response:
        claims, denied = authenticate(request, "header")
        if denied:
            return denied
        denied = csrf(request)
        if denied:
            return denied
        body, bad = await read_json(request)
        if bad:
            return bad
        issues = model.legacy_issues(body)
        if issues:
            return invalid(issues)
        streaming = body.get("streaming")
        run_body = model.encode_upstream({
            "appName": app_name,
            "userId": user_id,
            "sessionId": session_id,
            "newMessage": {"role": "user", "parts": [{"text": body["query"]}]},
            "streaming": streaming if isinstance(streaming, bool) else False,
        })
        sub = claims.get("sub") if isinstance(claims, dict) else None
        refused = gw.legacy.start((app_name, user_id, session_id), sub, run_body)
        if refused:
            return refusal(*refused)
        return JSONResponse({"success": True, "sessionId": session_id})

    @app.get("/apps/{app_name}/users/{user_id}/sessions/{session_id}/run")
    async def legacy_stream(app_name: str, user_id: str, session_id: str, request: Request) -> Response:
        claims, denied = authenticate(request, "header-or-cookie")
        if denied:
            return denied
        run = gw.legacy.get((app_name, user_id, session_id))
        if run is None:
            return refusal(404, "GW_LEGACY_RUN_NOT_FOUND", "no legacy run is held for this session; POST .../run first")
        sub = claims.get("sub") if isinstance(claims, dict) else None
        if not cfg.allow_unauthenticated and run.sub != sub:
            return refusal(403, "GW_LEGACY_FORBIDDEN", "this legacy run was started by another token subject")
        last: Optional[int] = None
        raw_last = request.headers.get("last-event-id")
        if raw_last is not None and raw_last.strip().isdigit():
            last = int(raw_last.strip())
        return LegacyStreamResponse(gw, run, last)

    # ---------------------------------------------------------------- public

    @app.get("/_gateway/csrf")
    async def csrf_token() -> Response:
        token = secrets.token_urlsafe(32)  # 256 random bits
        resp = JSONResponse({"csrfToken": token, "header": "X-CSRF-Token", "cookie": cfg.csrf_cookie})
        resp.headers.append("Set-Cookie", f"{cfg.csrf_cookie}={token}; Path=/; SameSite=Strict")
        return resp

    @app.get("/_gateway/stats")
    async def stats() -> Response:
        if not cfg.expose_stats:
            return refusal(404, "GW_NOT_FOUND", "GET /_gateway/stats is off (GATEWAY_EXPOSE_STATS=false)")
        return JSONResponse({"streams": dict(gw.stats), "legacy": gw.legacy.snapshot()})

    @app.get("/health")
    async def health() -> Response:
        return JSONResponse({"status": "ok", "upstream": cfg.upstream, "canonicalStreamEnabled": cfg.canonical_enabled, "auth": cfg.auth_label})

    return app


class _Server(uvicorn.Server):
    """uvicorn waits for open responses on SIGTERM; end our streams (and abort their upstreams) first."""

    gateway: Optional[Gateway] = None

    def handle_exit(self, sig: int, frame: Any) -> None:
        if self.gateway is not None:
            self.gateway.shutdown()
        super().handle_exit(sig, frame)


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description="Seed 004 /run_sse gateway (FastAPI + httpx + PyJWT on uvicorn).")
    ap.add_argument("--port", type=int, help="TCP port (default $PORT or 8000; 0: the kernel picks)")
    ap.add_argument("--host", help="interface to listen on (default 127.0.0.1)")
    ap.add_argument("--upstream", help="ADK API server base URL (default $ADK_UPSTREAM_URL or http://127.0.0.1:8080)")
    ap.add_argument("--enable-canonical", action="store_true", help="ENABLE_ADK_CANONICAL_STREAM=true")
    ap.add_argument("--allow-unauthenticated", action="store_true", help="ALLOW_UNAUTHENTICATED_SSE=true (development only)")
    ap.add_argument("--timeout-ms", type=int, help="GATEWAY_TIMEOUT_MS")
    args = ap.parse_args(argv)
    try:
        cfg = read_config(os.environ, {
            "port": args.port, "host": args.host, "upstream": args.upstream, "enable_canonical": args.enable_canonical,
            "allow_unauthenticated": args.allow_unauthenticated, "timeout_ms": args.timeout_ms,
        })
    except ConfigError as e:
        print(f"fastapi-gateway: {e}", file=sys.stderr)
        return 2

    app = build_app(cfg)
    family = socket.AF_INET6 if ":" in cfg.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((cfg.host, cfg.port))
    except OSError as e:
        print(f"fastapi-gateway: cannot listen on {cfg.host}:{cfg.port} ({e.strerror}); set PORT to a free port", file=sys.stderr)
        return 1
    sock.listen(1024)
    sock.set_inheritable(True)
    port = sock.getsockname()[1]

    config = uvicorn.Config(app, http="h11", loop="asyncio", lifespan="off", log_level="warning",
                            access_log=False, server_header=False, date_header=True, timeout_keep_alive=5)
    server = _Server(config)
    server.gateway = app.state.gateway
    print(f"gateway listening on http://{cfg.host if ':' not in cfg.host else '[' + cfg.host + ']'}:{port} (upstream {cfg.upstream})", flush=True)
    server.run(sockets=[sock])
    return 0


if __name__ == "__main__":
    sys.exit(main())
