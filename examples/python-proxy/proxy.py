#!/usr/bin/env python3
"""Cookie-to-bearer SSE proxy (docs/proxy-contract.md), standard library only.

POST /api/sse/run_sse
  - the JWT is read ONLY from the HttpOnly cookie $AUTH_COOKIE_NAME and sent to
    $BACKEND_URL/run_sse as "Authorization: Bearer <token>"; no cookie -> 401 here;
  - X-CSRF-Token and the $CSRF_COOKIE_NAME cookie are passed on unchanged (the
    backend's CSRF middleware checks them); nothing is ever filled in;
  - the backend's status, Content-Type and body bytes are passed back unchanged,
    chunk by chunk as they arrive (chunked transfer encoding to the browser);
  - when the browser goes away, the backend connection is closed at once.

Environment: PORT, BACKEND_URL, AUTH_COOKIE_NAME (access_token), CSRF_COOKIE_NAME (csrf_token).
"""

import http.client
import json
import os
import select
import socket
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = int(os.environ.get("PORT", "3000"))
BACKEND_URL = os.environ.get("BACKEND_URL", "http://127.0.0.1:8000").rstrip("/")
AUTH_COOKIE_NAME = os.environ.get("AUTH_COOKIE_NAME", "access_token")
CSRF_COOKIE_NAME = os.environ.get("CSRF_COOKIE_NAME", "csrf_token")
ROUTE = "/api/sse/run_sse"
READ_SIZE = 64 * 1024
MAX_BODY = 10 * 1024 * 1024

_backend = urllib.parse.urlsplit(BACKEND_URL)
if _backend.scheme != "http" or not _backend.hostname:
    sys.exit("BACKEND_URL must be an http:// URL, got %r" % BACKEND_URL)
BACKEND_HOST = _backend.hostname
BACKEND_PORT = _backend.port or 80
BACKEND_PATH = (_backend.path.rstrip("/") or "") + "/run_sse"


def parse_cookies(headers):
    """All cookies of all Cookie headers, first occurrence wins; values are kept verbatim."""
    cookies = {}
    for line in headers.get_all("Cookie") or []:
        for part in line.split(";"):
            name, sep, value = part.partition("=")
            if not sep:
                continue
            name = name.strip()
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1]
            if name and name not in cookies:
                cookies[name] = value
    return cookies


class ClientWatcher(threading.Thread):
    """Watches the browser's socket for EOF/reset while the backend is silent."""

    def __init__(self, client_sock, on_gone):
        super().__init__(daemon=True)
        self.client_sock = client_sock
        self.on_gone = on_gone
        self.stopped = threading.Event()

    def stop(self):
        self.stopped.set()

    def run(self):
        while not self.stopped.is_set():
            try:
                readable, _, errored = select.select([self.client_sock], [], [self.client_sock], 0.1)
            except (OSError, ValueError):
                self._gone()
                return
            if self.stopped.is_set():
                return
            if errored:
                self._gone()
                return
            if readable:
                try:
                    data = self.client_sock.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
                except BlockingIOError:
                    continue
                except OSError:
                    self._gone()
                    return
                if not data:
                    self._gone()
                    return
                # The client sent more bytes (pipelining); not a disconnect. Back off a little.
                self.stopped.wait(0.1)

    def _gone(self):
        if not self.stopped.is_set():
            self.on_gone()


class ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "python-sse-proxy/1.0"

    def log_message(self, fmt, *args):
        sys.stderr.write("proxy: %s - %s\n" % (self.address_string(), fmt % args))

    # -- small helpers -------------------------------------------------------------------

    def send_json(self, status, payload):
        body = json.dumps(payload).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()

    def read_body(self):
        """Request body bytes, or None after an error answer was sent."""
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            chunks = []
            total = 0
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    return None
                size = int(line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while True:  # trailers
                        trailer = self.rfile.readline(65537)
                        if trailer in (b"\r\n", b"\n", b""):
                            break
                    break
                total += size
                if total > MAX_BODY:
                    self.close_connection = True
                    self.send_json(413, {"error": "Payload Too Large"})
                    return None
                chunks.append(self.rfile.read(size))
                self.rfile.readline(3)
            return b"".join(chunks)
        length = int(self.headers.get("Content-Length") or "0")
        if length > MAX_BODY:
            self.close_connection = True
            self.send_json(413, {"error": "Payload Too Large"})
            return None
        return self.rfile.read(length) if length > 0 else b""

    # -- routes --------------------------------------------------------------------------

    def route_path(self):
        return urllib.parse.urlsplit(self.path).path

    def do_GET(self):
        if self.route_path() == "/health":
            self.send_json(200, {"status": "ok"})
        elif self.route_path() == ROUTE:
            self.send_json(405, {"error": "Method Not Allowed"})
        else:
            self.send_json(404, {"error": "Not Found"})

    def do_POST(self):
        if self.route_path() != ROUTE:
            self.send_json(404, {"error": "Not Found"})
            return
        # Read the body first so the connection stays well-formed whatever we answer.
        try:
            body = self.read_body()
        except (ValueError, OSError):
            self.close_connection = True
            self.send_json(400, {"error": "Bad Request"})
            return
        if body is None:
            return

        cookies = parse_cookies(self.headers)
        token = cookies.get(AUTH_COOKIE_NAME, "")
        if not token:
            # Only the cookie counts: a token in the URL or an Authorization header is ignored.
            self.send_json(401, {
                "error": "Unauthorized",
                "code": "PROXY_AUTH_MISSING",
                "reason": "missing %s cookie" % AUTH_COOKIE_NAME,
            })
            return

        headers = {
            "Authorization": "Bearer " + token,
            "Content-Type": self.headers.get("Content-Type") or "application/json",
            "Accept": self.headers.get("Accept") or "text/event-stream",
            "Content-Length": str(len(body)),
            "Connection": "close",
        }
        csrf_header = self.headers.get("X-CSRF-Token")
        if csrf_header is not None:
            headers["X-CSRF-Token"] = csrf_header
        if CSRF_COOKIE_NAME in cookies:
            headers["Cookie"] = "%s=%s" % (CSRF_COOKIE_NAME, cookies[CSRF_COOKIE_NAME])

        self.proxy(body, headers)

    def proxy(self, body, headers):
        conn = http.client.HTTPConnection(BACKEND_HOST, BACKEND_PORT)
        aborted = threading.Event()
        lock = threading.Lock()
        # Keep our own reference to the backend socket: http.client drops conn.sock as soon
        # as a "Connection: close" response arrives, while the response keeps reading from it.
        backend_sock = []

        def close_backend():
            with lock:
                aborted.set()
                for sock in backend_sock:
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    try:
                        sock.close()
                    except OSError:
                        pass
                try:
                    conn.close()
                except Exception:
                    pass

        watcher = ClientWatcher(self.connection, close_backend)
        watcher.start()
        resp = None
        try:
            try:
                conn.connect()
                with lock:
                    backend_sock.append(conn.sock)
                    if aborted.is_set():
                        raise ConnectionAbortedError("client left")
                conn.request("POST", BACKEND_PATH, body=body, headers=headers)
                resp = conn.getresponse()
            except (OSError, http.client.HTTPException) as err:
                if aborted.is_set():
                    self.close_connection = True
                    return
                self.log_message("backend error: %r", err)
                self.close_connection = True
                self.send_json(502, {"error": "Bad Gateway", "reason": "backend unreachable"})
                return

            self.send_response(resp.status, resp.reason)
            content_type = resp.getheader("Content-Type")
            if content_type is not None:
                self.send_header("Content-Type", content_type)
            cache_control = resp.getheader("Cache-Control")
            if cache_control is not None:
                self.send_header("Cache-Control", cache_control)
            self.send_header("X-Accel-Buffering", "no")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            self.wfile.flush()

            while True:
                try:
                    chunk = resp.read1(READ_SIZE)
                except (OSError, http.client.HTTPException, ValueError, AttributeError):
                    # Backend reset, or we closed it because the client left.
                    self.close_connection = True
                    return
                if not chunk:
                    break
                try:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    self.wfile.flush()
                except OSError:
                    # The browser went away: close the backend request now.
                    close_backend()
                    self.close_connection = True
                    return
            if aborted.is_set():
                self.close_connection = True
                return
            try:
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()
            except OSError:
                self.close_connection = True
        finally:
            watcher.stop()
            close_backend()
            if resp is not None:
                try:
                    resp.close()
                except Exception:
                    pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    server = Server(("127.0.0.1", PORT), ProxyHandler)
    sys.stderr.write("cookie-to-bearer proxy on http://127.0.0.1:%d -> %s%s\n"
                     % (PORT, BACKEND_URL, "/run_sse"))
    sys.stderr.flush()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
