#!/usr/bin/python3
"""Seed 004's /run_sse gateway as a team writes it: FastAPI + httpx, the seed's code taken literally.

Calibration material, not an example to copy (README.md in this folder). Its defects are kept.
"""
import json
import os
import time
from typing import Any, Optional

import httpx
import jwt
import uvicorn
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

ENABLE_ADK_CANONICAL_STREAM = os.getenv("ENABLE_ADK_CANONICAL_STREAM", "false").lower() == "true"
ALLOW_UNAUTHENTICATED_SSE = os.getenv("ALLOW_UNAUTHENTICATED_SSE", "false").lower() == "true"
ADK_UPSTREAM_URL = os.getenv("ADK_UPSTREAM_URL") or "http://127.0.0.1:8080"
JWT_SECRET = os.getenv("JWT_SECRET", "")
JWT_PUBLIC_KEY = os.getenv("JWT_PUBLIC_KEY", "")
CSRF_SKIP_LOCALHOST = os.getenv("CSRF_SKIP_LOCALHOST", "true").lower() == "true"
CSRF_COOKIE_NAME = os.getenv("CSRF_COOKIE_NAME") or "csrf_token"
TIMEOUT_SECONDS = int(os.getenv("GATEWAY_TIMEOUT_MS") or "300000") / 1000

app = FastAPI()


# Seed 004 "TypeScript Interface": parts: Array<{ text: string }>.
class Part(BaseModel):
    text: str


class Content(BaseModel):
    parts: list[Part]
    role: str


# Seed 004 "Python Model" (app/models.py:234-260), pydantic v1 spelling.
class RunAgentRequest(BaseModel):
    """ADK-compliant request model for running an agent with streaming support."""

    class Config:
        allow_population_by_field_name = True

    app_name: str = Field(..., alias="appName")
    user_id: str = Field(..., alias="userId")
    session_id: str = Field(..., alias="sessionId")
    new_message: Content = Field(..., alias="newMessage")
    streaming: bool = False
    state_delta: Optional[dict[str, Any]] = Field(None, alias="stateDelta")
    invocation_id: Optional[str] = Field(None, alias="invocationId")


def get_current_user(request: Request) -> dict:
    """Seed 004 "Authentication": JWT Bearer tokens; ALLOW_UNAUTHENTICATED_SSE=true bypasses."""
    if ALLOW_UNAUTHENTICATED_SSE:
        return {"sub": "dev"}
    auth = request.headers.get("Authorization", "")
    if not auth.startswith("Bearer "):
        raise HTTPException(status_code=401, detail="Not authenticated")
    try:
        if JWT_PUBLIC_KEY:
            return jwt.decode(auth[7:], JWT_PUBLIC_KEY, algorithms=["RS256"])
        return jwt.decode(auth[7:], JWT_SECRET, algorithms=["HS256"])
    except jwt.PyJWTError:
        raise HTTPException(status_code=401, detail="Invalid token")


@app.middleware("http")
async def csrf_middleware(request: Request, call_next):
    """Seed 004 "CSRF Protection": token validation on POST, in middleware; skipped for localhost."""
    if request.method == "POST":
        if not (CSRF_SKIP_LOCALHOST and request.url.hostname == "localhost"):
            header = request.headers.get("X-CSRF-Token")
            cookie = request.cookies.get(CSRF_COOKIE_NAME)
            if not header or header != cookie:
                from fastapi.responses import JSONResponse
                return JSONResponse({"detail": "CSRF token missing or invalid"}, status_code=403)
    return await call_next(request)


@app.post("/run_sse")
async def run_sse(request: RunAgentRequest, current_user: dict = Depends(get_current_user)):
    if not ENABLE_ADK_CANONICAL_STREAM:
        raise HTTPException(
            status_code=501,
            detail="ADK canonical streaming not enabled. Set ENABLE_ADK_CANONICAL_STREAM=true to use this endpoint.",
        )

    async def stream_adk_events():
        """Stream raw ADK Event JSON from upstream ADK service."""
        timeout_config = httpx.Timeout(TIMEOUT_SECONDS, read=None)
        try:
            async with httpx.AsyncClient(timeout=timeout_config) as client:
                async with client.stream(
                    "POST",
                    f"{ADK_UPSTREAM_URL}/run_sse",
                    json=request.dict(by_alias=True, exclude_none=True),
                ) as upstream:
                    upstream.raise_for_status()

                    # CRITICAL: Forward ALL lines including empty ones
                    # Empty lines are SSE event delimiters
                    async for line in upstream.aiter_lines():
                        yield f"{line}\n"
        except httpx.TimeoutException:
            yield f"data: {json.dumps({'error': f'Request timeout after {TIMEOUT_SECONDS:g} seconds', 'error_code': 'TIMEOUT', 'timestamp': time.time()})}\n\n"
        except httpx.HTTPStatusError as e:
            code = e.response.status_code
            yield f"data: {json.dumps({'error': f'ADK upstream error: {code}', 'status_code': code, 'detail': str(e), 'timestamp': time.time()})}\n\n"
        except Exception as e:
            yield f"data: {json.dumps({'error': str(e), 'error_code': 'STREAM_ERROR', 'timestamp': time.time()})}\n\n"

    return StreamingResponse(
        stream_adk_events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"},
    )


if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(os.getenv("PORT", "8000")))
