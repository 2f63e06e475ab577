"""RunAgentRequest (seed 004 § Request Format): validation and the body sent upstream.

Validation follows schemas/run-agent-request.schema.json (required appName, userId, sessionId,
newMessage with non-empty `parts` and `role: "user"`; other fields allowed). snake_case aliases
(`app_name`...) are read as the seed's `populate_by_name=True` model reads them.

The upstream body is what the seed's `request.model_dump(by_alias=True, exclude_none=True)` gives:
the model's fields only, in its order, camelCase, `streaming` always present (default false),
null optionals omitted (also inside newMessage), `stateDelta` as received.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

# (camelCase alias, snake_case field name) in the seed model's order.
FIELDS: List[Tuple[str, str]] = [
    ("appName", "app_name"),
    ("userId", "user_id"),
    ("sessionId", "session_id"),
    ("newMessage", "new_message"),
    ("streaming", "streaming"),
    ("stateDelta", "state_delta"),
    ("invocationId", "invocation_id"),
]
REQUIRED = {"appName", "userId", "sessionId", "newMessage"}

Issue = Dict[str, str]


class BadJson(Exception):
    pass


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse_json(raw: bytes) -> Any:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadJson(f"body is not UTF-8 ({e.reason} at byte {e.start})") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as e:
        raise BadJson(f"body is not valid JSON ({e})") from None


def _is_type(v: Any, t: str) -> bool:
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    return True


def _check_object(obj: Dict[str, Any], path: str, required: List[str], props: Dict[str, str], issues: List[Issue]) -> None:
    for name in required:
        if name not in obj:
            issues.append({"path": f"{path}/{name}", "message": f"must have required property '{name}'"})
    for name, t in props.items():
        if name in obj and not _is_type(obj[name], t):
            issues.append({"path": f"{path}/{name}", "message": f"must be {t}"})


def _check_part(part: Any, path: str, issues: List[Issue]) -> None:
    if not isinstance(part, dict):
        issues.append({"path": path, "message": "must be object"})
        return
    if len(part) < 1:
        issues.append({"path": path, "message": "must NOT have fewer than 1 properties"})
        return
    if "text" in part and not isinstance(part["text"], str):
        issues.append({"path": f"{path}/text", "message": "must be string"})
    specs = {
        "functionResponse": (["name", "response"], {"id": "string", "name": "string", "response": "object"}),
        "functionCall": (["name"], {"id": "string", "name": "string", "args": "object"}),
        "inlineData": (["data"], {"mimeType": "string", "data": "string"}),
        "fileData": (["fileUri"], {"mimeType": "string", "fileUri": "string"}),
    }
    for key, (req, props) in specs.items():
        if key in part:
            v = part[key]
            if not isinstance(v, dict):
                issues.append({"path": f"{path}/{key}", "message": "must be object"})
            else:
                _check_object(v, f"{path}/{key}", req, props, issues)


def _lookup(body: Dict[str, Any], alias: str, name: str) -> Tuple[bool, Any, str]:
    if alias in body:
        return True, body[alias], alias
    if name != alias and name in body:
        return True, body[name], name
    return False, None, alias


def validate(body: Any) -> List[Issue]:
    """Every schema violation, each {path, message}; empty when the body is a valid RunAgentRequest."""
    issues: List[Issue] = []
    if not isinstance(body, dict):
        return [{"path": "", "message": "must be object"}]
    for alias, name in FIELDS:
        present, value, used = _lookup(body, alias, name)
        path = f"/{used}"
        if not present:
            if alias in REQUIRED:
                issues.append({"path": path, "message": f"must have required property '{alias}'"})
            continue
        if alias in ("appName", "userId", "sessionId", "invocationId"):
            if not isinstance(value, str):
                issues.append({"path": path, "message": "must be string"})
        elif alias == "streaming":
            if not isinstance(value, bool):
                issues.append({"path": path, "message": "must be boolean"})
        elif alias == "stateDelta":
            if not isinstance(value, dict):
                issues.append({"path": path, "message": "must be object"})
        elif alias == "newMessage":
            if not isinstance(value, dict):
                issues.append({"path": path, "message": "must be object"})
                continue
            if "parts" not in value:
                issues.append({"path": f"{path}/parts", "message": "must have required property 'parts'"})
            if "role" not in value:
                issues.append({"path": f"{path}/role", "message": "must have required property 'role'"})
            elif value["role"] != "user":
                issues.append({"path": f"{path}/role", "message": "must be equal to constant 'user'"})
            if "parts" in value:
                parts = value["parts"]
                if not isinstance(parts, list):
                    issues.append({"path": f"{path}/parts", "message": "must be array"})
                elif len(parts) < 1:
                    issues.append({"path": f"{path}/parts", "message": "must NOT have fewer than 1 items"})
                else:
                    for i, part in enumerate(parts):
                        _check_part(part, f"{path}/parts/{i}", issues)
    return issues


def upstream_body(body: Dict[str, Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for alias, name in FIELDS:
        present, value, _ = _lookup(body, alias, name)
        if alias == "streaming":
            out["streaming"] = value if present and value is not None else False
            continue
        if not present or value is None:
            continue
        if alias == "newMessage":
            msg = {k: v for k, v in value.items() if v is not None}
            if isinstance(msg.get("parts"), list):
                msg["parts"] = [({k: x for k, x in p.items() if x is not None} if isinstance(p, dict) else p) for p in msg["parts"]]
            out[alias] = msg
        else:
            out[alias] = value
    return out


def encode_upstream(body: Dict[str, Any]) -> bytes:
    return json.dumps(upstream_body(body), separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def legacy_issues(body: Any) -> List[Issue]:
    if not isinstance(body, dict):
        return [{"path": "", "message": "must be object"}]
    issues: List[Issue] = []
    if "query" not in body:
        issues.append({"path": "/query", "message": "must have required property 'query'"})
    elif not isinstance(body["query"], str):
        issues.append({"path": "/query", "message": "must be string"})
    if "streaming" in body and body["streaming"] is not None and not isinstance(body["streaming"], bool):
        issues.append({"path": "/streaming", "message": "must be boolean"})
    return issues


def first_reason(issues: List[Issue]) -> str:
    i = issues[0]
    return f"{i['path'] or '(body)'}: {i['message']}"


__all__ = ["BadJson", "parse_json", "validate", "encode_upstream", "upstream_body", "legacy_issues", "first_reason"]
