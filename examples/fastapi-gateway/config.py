"""The gateway's settings: the environment variables of docs/gateway.md § Settings.

A value that cannot be read stops the gateway at start with the variable's name and the fix
(`ConfigError`); an empty variable counts as unset (the harness passes the ones it does not use
as empty strings).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional
from urllib.parse import urlsplit

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa


class ConfigError(Exception):
    pass


@dataclass
class JwksKey:
    kid: Optional[str]
    alg: str
    key: Any


@dataclass
class Config:
    port: int = 8000
    host: str = "127.0.0.1"
    upstream: str = "http://127.0.0.1:8080"
    canonical_enabled: bool = False
    allow_unauthenticated: bool = False
    auth_mode: str = "none"          # "secret" | "public-key" | "jwks" | "none"
    hs_secret: Optional[bytes] = None
    public_key: Any = None
    public_alg: Optional[str] = None  # RS256 or ES256 for public-key mode
    jwks: List[JwksKey] = field(default_factory=list)
    issuer: Optional[str] = None
    audience: Optional[str] = None
    clock_tolerance_s: float = 5.0
    csrf_skip_localhost: bool = True
    csrf_cookie: str = "csrf_token"
    auth_cookie: str = "access_token"
    timeout_ms: int = 300_000
    body_limit: int = 10 * 1024 * 1024
    expose_stats: bool = True
    legacy_replay_events: int = 1000
    legacy_max_runs: int = 100
    legacy_unread_ttl_ms: int = 300_000

    @property
    def auth_label(self) -> str:
        if self.allow_unauthenticated:
            return "disabled"
        return {"secret": "HS256", "public-key": self.public_alg or "", "jwks": "JWKS (RS256/ES256)"}.get(self.auth_mode, "none")


def _get(env: Mapping[str, str], name: str) -> Optional[str]:
    v = env.get(name)
    if v is None or v.strip() == "":
        return None
    return v


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    v = _get(env, name)
    if v is None:
        return default
    s = v.strip().lower()
    if s == "true":
        return True
    if s == "false":
        return False
    raise ConfigError(f"{name}={v!r} is not a boolean; set it to true or false (or leave it unset for {str(default).lower()})")


def _int(env: Mapping[str, str], name: str, default: int, minimum: int, maximum: Optional[int] = None) -> int:
    v = _get(env, name)
    if v is None:
        return default
    try:
        n = int(v.strip(), 10)
    except ValueError:
        raise ConfigError(f"{name}={v!r} is not an integer; set it to a whole number >= {minimum}") from None
    if n < minimum or (maximum is not None and n > maximum):
        bound = f"between {minimum} and {maximum}" if maximum is not None else f">= {minimum}"
        raise ConfigError(f"{name}={v!r} is out of range; set it to a whole number {bound}")
    return n


def _load_public_key(pem_text: str) -> Any:
    pem = pem_text.replace("\\n", "\n").strip().encode("ascii", "replace")
    try:
        key = serialization.load_pem_public_key(pem)
    except Exception as e:  # noqa: BLE001 - any parse failure is a configuration error
        raise ConfigError(f"JWT_PUBLIC_KEY is not a PEM public key (SPKI, '-----BEGIN PUBLIC KEY-----'): {e}; export the key with 'openssl pkey -pubout'") from None
    return key


def _key_alg(key: Any, where: str) -> str:
    if isinstance(key, rsa.RSAPublicKey):
        return "RS256"
    if isinstance(key, ec.EllipticCurvePublicKey) and isinstance(key.curve, ec.SECP256R1):
        return "ES256"
    raise ConfigError(f"{where} is neither an RSA nor a P-256 public key; the gateway verifies RS256 and ES256 only")


def _load_jwks(path: str) -> List[JwksKey]:
    try:
        with open(path, "r", encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise ConfigError(f"JWT_JWKS_FILE={path!r} cannot be read ({e.strerror}); point it at a local JWKS JSON file") from None
    except ValueError as e:
        raise ConfigError(f"JWT_JWKS_FILE={path!r} is not JSON ({e}); it must be {{\"keys\": [...]}}") from None
    keys = doc.get("keys") if isinstance(doc, dict) else None
    if not isinstance(keys, list) or not keys:
        raise ConfigError(f"JWT_JWKS_FILE={path!r} has no \"keys\" array; it must be {{\"keys\": [...]}} with RSA or P-256 keys")
    out: List[JwksKey] = []
    for i, jwk in enumerate(keys):
        if not isinstance(jwk, dict):
            raise ConfigError(f"JWT_JWKS_FILE={path!r}: keys[{i}] is not an object")
        kty = jwk.get("kty")
        try:
            if kty == "RSA":
                key = jwt.algorithms.RSAAlgorithm.from_jwk(json.dumps(jwk))
            elif kty == "EC":
                key = jwt.algorithms.ECAlgorithm.from_jwk(json.dumps(jwk))
            else:
                raise ConfigError(f"JWT_JWKS_FILE={path!r}: keys[{i}] has kty {kty!r}; only RSA and EC (P-256) keys are accepted")
        except ConfigError:
            raise
        except Exception as e:  # noqa: BLE001
            raise ConfigError(f"JWT_JWKS_FILE={path!r}: keys[{i}] is not a usable public JWK ({e})") from None
        if hasattr(key, "public_key") and not isinstance(key, (rsa.RSAPublicKey, ec.EllipticCurvePublicKey)):
            key = key.public_key()
        out.append(JwksKey(kid=jwk.get("kid") if isinstance(jwk.get("kid"), str) else None, alg=_key_alg(key, f"JWT_JWKS_FILE keys[{i}]"), key=key))
    return out


def read_config(env: Mapping[str, str], overrides: Optional[Dict[str, Any]] = None) -> Config:
    o = overrides or {}
    c = Config()
    c.port = o["port"] if o.get("port") is not None else _int(env, "PORT", 8000, 0, 65535)
    c.host = o.get("host") or "127.0.0.1"
    upstream = o.get("upstream") or _get(env, "ADK_UPSTREAM_URL") or "http://127.0.0.1:8080"
    u = urlsplit(upstream)
    if u.scheme not in ("http", "https") or not u.netloc:
        raise ConfigError(f"ADK_UPSTREAM_URL={upstream!r} is not an absolute http(s) URL; set it to the ADK API server's base URL, e.g. http://127.0.0.1:8080")
    c.upstream = upstream.rstrip("/")
    c.canonical_enabled = True if o.get("enable_canonical") else _bool(env, "ENABLE_ADK_CANONICAL_STREAM", False)
    c.allow_unauthenticated = True if o.get("allow_unauthenticated") else _bool(env, "ALLOW_UNAUTHENTICATED_SSE", False)

    secret = _get(env, "JWT_SECRET")
    pub = _get(env, "JWT_PUBLIC_KEY")
    jwks = _get(env, "JWT_JWKS_FILE")
    given = [n for n, v in (("JWT_SECRET", secret), ("JWT_PUBLIC_KEY", pub), ("JWT_JWKS_FILE", jwks)) if v is not None]
    if len(given) > 1:
        raise ConfigError(f"{' and '.join(given)} are all set; set exactly one key source for JWT verification")
    if not given and not c.allow_unauthenticated:
        raise ConfigError("no JWT key is configured; set JWT_SECRET (HS256, at least 32 bytes), JWT_PUBLIC_KEY (RSA or P-256 SPKI PEM) or JWT_JWKS_FILE, or ALLOW_UNAUTHENTICATED_SSE=true for development")
    if secret is not None:
        b = secret.encode("utf-8")
        if len(b) < 32:
            raise ConfigError(f"JWT_SECRET is {len(b)} bytes; an HS256 secret must be at least 32 bytes (RFC 7518 section 3.2)")
        c.auth_mode, c.hs_secret = "secret", b
    elif pub is not None:
        key = _load_public_key(pub)
        c.auth_mode, c.public_key, c.public_alg = "public-key", key, _key_alg(key, "JWT_PUBLIC_KEY")
    elif jwks is not None:
        c.auth_mode, c.jwks = "jwks", _load_jwks(jwks)
    c.issuer = _get(env, "JWT_ISSUER")
    c.audience = _get(env, "JWT_AUDIENCE")
    tol = _get(env, "JWT_CLOCK_TOLERANCE_S")
    if tol is not None:
        try:
            c.clock_tolerance_s = float(tol)
        except ValueError:
            raise ConfigError(f"JWT_CLOCK_TOLERANCE_S={tol!r} is not a number of seconds") from None
        if not (0 <= c.clock_tolerance_s < 86400):
            raise ConfigError(f"JWT_CLOCK_TOLERANCE_S={tol!r} is out of range; use 0 to 86399 seconds")
    c.csrf_skip_localhost = _bool(env, "CSRF_SKIP_LOCALHOST", True)
    c.csrf_cookie = _get(env, "CSRF_COOKIE_NAME") or "csrf_token"
    c.auth_cookie = _get(env, "AUTH_COOKIE_NAME") or "access_token"
    c.timeout_ms = o["timeout_ms"] if o.get("timeout_ms") is not None else _int(env, "GATEWAY_TIMEOUT_MS", 300_000, 1)
    c.body_limit = _int(env, "GATEWAY_BODY_LIMIT_BYTES", 10 * 1024 * 1024, 1)
    c.expose_stats = _bool(env, "GATEWAY_EXPOSE_STATS", True)
    c.legacy_replay_events = _int(env, "LEGACY_REPLAY_EVENTS", 1000, 1)
    c.legacy_max_runs = _int(env, "LEGACY_MAX_RUNS", 100, 1)
    c.legacy_unread_ttl_ms = _int(env, "LEGACY_UNREAD_TTL_MS", 300_000, 0)
    return c


def from_environ() -> Config:
    return read_config(os.environ)
