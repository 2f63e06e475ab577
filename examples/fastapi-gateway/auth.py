"""JWT bearer verification (PyJWT) and the CSRF double-submit check (seed 004 § Security Requirements).

Algorithms are pinned per key type, never read from the token: JWT_SECRET accepts HS256 only,
an RSA JWT_PUBLIC_KEY RS256 only, a P-256 key ES256 only, a JWKS RS256/ES256 by key. That is what
refuses `alg: none` and the HS/RS confusion token (HS256 MACed with the RSA public key's PEM).
The signature is checked first, then the claims by hand (exp required, nbf honoured, both with
JWT_CLOCK_TOLERANCE_S of skew; iss/aud only when configured), so each refusal gets its own code.
"""
from __future__ import annotations

import hmac
import ipaddress
import re
import time
from typing import Any, Dict, Optional, Tuple
from urllib.parse import urlsplit

import jwt
from jwt.exceptions import DecodeError, InvalidAlgorithmError, InvalidSignatureError, InvalidKeyError, PyJWTError

from config import Config

_BEARER = re.compile(r"^\s*Bearer[ ]+([^\s]+)\s*$", re.IGNORECASE)
_B64URL = re.compile(r"^[A-Za-z0-9_-]*$")


class AuthFailure(Exception):
    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def bearer_from_header(value: Optional[str]) -> str:
    if value is None:
        raise AuthFailure("GW_AUTH_MISSING", "missing bearer token")
    m = _BEARER.match(value)
    if not m:
        raise AuthFailure("GW_AUTH_MALFORMED", "Authorization header is not 'Bearer <token>'")
    return m.group(1)


def verify_token(cfg: Config, token: str) -> Dict[str, Any]:
    """The token's claims, or AuthFailure with the code and reason of docs/gateway.md § Authentication."""
    segments = token.split(".")
    if len(segments) != 3 or not all(_B64URL.match(s) for s in segments) or not segments[0] or not segments[1]:
        raise AuthFailure("GW_AUTH_MALFORMED", "malformed token (not a compact JWS: header.payload.signature)")
    try:
        header = jwt.get_unverified_header(token)
    except DecodeError as e:
        raise AuthFailure("GW_AUTH_MALFORMED", f"malformed token ({e})") from None
    alg = header.get("alg")

    key: Any
    if cfg.auth_mode == "secret":
        allowed, key = "HS256", cfg.hs_secret
    elif cfg.auth_mode == "public-key":
        allowed, key = cfg.public_alg, cfg.public_key
    elif cfg.auth_mode == "jwks":
        if alg not in ("RS256", "ES256"):
            raise AuthFailure("GW_AUTH_ALG_NOT_ALLOWED", "algorithm not allowed for the configured key")
        kid = header.get("kid")
        candidates = [k for k in cfg.jwks if k.alg == alg and (kid is None or k.kid == kid)]
        if not candidates:
            raise AuthFailure("GW_AUTH_NO_MATCHING_KEY", "no configured key matches the token")
        allowed, key = alg, None
        last: Optional[AuthFailure] = None
        for cand in candidates:
            try:
                return _verify_with(cfg, token, cand.key, alg)
            except AuthFailure as f:
                if f.code != "GW_AUTH_BAD_SIGNATURE":
                    raise
                last = f
        raise last or AuthFailure("GW_AUTH_BAD_SIGNATURE", "signature invalid")
    else:
        raise AuthFailure("GW_AUTH_MISSING", "no JWT key is configured")
    if alg != allowed:
        raise AuthFailure("GW_AUTH_ALG_NOT_ALLOWED", "algorithm not allowed for the configured key")
    return _verify_with(cfg, token, key, allowed)


def _verify_with(cfg: Config, token: str, key: Any, alg: str) -> Dict[str, Any]:
    try:
        claims = jwt.decode(
            token,
            key,
            algorithms=[alg],
            options={
                "verify_signature": True,
                "verify_exp": False,
                "verify_nbf": False,
                "verify_iat": False,
                "verify_aud": False,
                "verify_iss": False,
                "require": [],
            },
        )
    except InvalidSignatureError:
        raise AuthFailure("GW_AUTH_BAD_SIGNATURE", "signature invalid") from None
    except InvalidAlgorithmError:
        raise AuthFailure("GW_AUTH_ALG_NOT_ALLOWED", "algorithm not allowed for the configured key") from None
    except InvalidKeyError:
        raise AuthFailure("GW_AUTH_ALG_NOT_ALLOWED", "algorithm not allowed for the configured key") from None
    except DecodeError as e:
        raise AuthFailure("GW_AUTH_MALFORMED", f"malformed token ({e})") from None
    except PyJWTError as e:
        raise AuthFailure("GW_AUTH_BAD_SIGNATURE", f"signature invalid ({e})") from None

    now = time.time()
    tol = cfg.clock_tolerance_s
    exp = claims.get("exp")
    if not _is_number(exp):
        raise AuthFailure("GW_AUTH_CLAIM_INVALID", "token has no valid exp claim (exp must be a number of seconds)")
    if exp <= now - tol:
        raise AuthFailure("GW_AUTH_EXPIRED", "token expired")
    if "nbf" in claims:
        nbf = claims["nbf"]
        if not _is_number(nbf):
            raise AuthFailure("GW_AUTH_CLAIM_INVALID", "nbf claim invalid (must be a number of seconds)")
        if nbf > now + tol:
            raise AuthFailure("GW_AUTH_NOT_YET_VALID", "token not yet valid")
    if "iat" in claims and not _is_number(claims["iat"]):
        raise AuthFailure("GW_AUTH_CLAIM_INVALID", "iat claim invalid (must be a number of seconds)")
    if cfg.issuer is not None and claims.get("iss") != cfg.issuer:
        raise AuthFailure("GW_AUTH_CLAIM_INVALID", f"iss claim invalid (expected {cfg.issuer!r})")
    if cfg.audience is not None:
        aud = claims.get("aud")
        ok = aud == cfg.audience or (isinstance(aud, list) and cfg.audience in aud)
        if not ok:
            raise AuthFailure("GW_AUTH_CLAIM_INVALID", f"aud claim invalid (expected {cfg.audience!r})")
    return claims


# ---------------------------------------------------------------------------------------------
# CSRF

_LOCAL_NAMES = {"localhost", "127.0.0.1", "[::1]"}


def _loopback_peer(host: Optional[str]) -> bool:
    if not host:
        return False
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback


def _host_name(host_header: str) -> str:
    h = host_header.strip().lower()
    if h.startswith("["):
        end = h.find("]")
        return h[: end + 1] if end >= 0 else h
    return h.split(":", 1)[0]


def is_localhost_request(peer: Optional[str], headers: Any) -> bool:
    """Seed 004's "CSRF validation skipped for localhost", precisely (docs/gateway.md § CSRF)."""
    if not _loopback_peer(peer):
        return False
    host = headers.get("host")
    if host is None or _host_name(host) not in _LOCAL_NAMES:
        return False
    if headers.get("forwarded") is not None or headers.get("x-forwarded-for") is not None:
        return False
    origin = headers.get("origin")
    if origin is not None:
        try:
            o = urlsplit(origin)
            name = o.hostname or ""
        except ValueError:
            return False
        if o.scheme not in ("http", "https") or (name if name != "::1" else "[::1]") not in _LOCAL_NAMES:
            return False
    return True


def csrf_failure(cfg: Config, peer: Optional[str], headers: Any, cookies: Dict[str, str]) -> Optional[Tuple[str, str]]:
    """None when the POST may proceed, else (code, reason) for the 403."""
    if cfg.csrf_skip_localhost and is_localhost_request(peer, headers):
        return None
    header = headers.get("x-csrf-token")
    cookie = cookies.get(cfg.csrf_cookie)
    if not header:
        return ("GW_CSRF_MISSING", "missing X-CSRF-Token header")
    if not cookie:
        return ("GW_CSRF_MISSING", f"missing {cfg.csrf_cookie} cookie")
    if not hmac.compare_digest(header.encode("utf-8"), cookie.encode("utf-8")):
        return ("GW_CSRF_MISMATCH", f"X-CSRF-Token does not match the {cfg.csrf_cookie} cookie")
    return None
