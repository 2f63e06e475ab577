"""The legacy two-step pattern (seed 004 § Legacy Pattern), bounded (docs/gateway.md § Legacy two-step).

POST .../run starts a background run (an upstream /run_sse) and answers {"success": true,
"sessionId"}; GET .../run streams the events derived from it: agent_status, research_update,
and exactly one research_complete at the end. Every run keeps at most LEGACY_REPLAY_EVENTS
events, at most LEGACY_MAX_RUNS runs are held, a finished run nobody reads is dropped after
LEGACY_UNREAD_TTL_MS, and a reader more than 1 MiB behind is disconnected.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections import deque
from typing import Any, Deque, Dict, List, Optional, Set, Tuple

from sse_framing import SseParser
import upstream

READER_MAX_BEHIND = 1024 * 1024


def _compact(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


class Reader:
    __slots__ = ("queue", "behind", "overflow", "wake")

    def __init__(self) -> None:
        self.queue: Deque[Tuple[int, bytes, bool]] = deque()
        self.behind = 0
        self.overflow = False
        self.wake = asyncio.Event()

    def push(self, event_id: int, data: bytes, final: bool) -> None:
        if self.overflow:
            return
        self.behind += len(data)
        if self.behind > READER_MAX_BEHIND:
            self.overflow = True
            self.queue.clear()
        else:
            self.queue.append((event_id, data, final))
        self.wake.set()


class Deriver:
    """ADK events → legacy events (docs/gateway.md § Legacy events)."""

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.authors: Set[str] = set()
        self.final_report = ""
        self.final_agent: Optional[str] = None
        self.error: Optional[str] = None

    def _payload(self, event_id: Any, **fields: Any) -> Dict[str, Any]:
        p: Dict[str, Any] = {"sessionId": self.session_id}
        if isinstance(event_id, str):
            p["eventId"] = event_id
        p.update({k: v for k, v in fields.items() if v is not None})
        return p

    def derive(self, data: str) -> List[Tuple[str, Dict[str, Any]]]:
        try:
            ev = json.loads(data)
        except ValueError:
            return []
        if not isinstance(ev, dict):
            return []
        out: List[Tuple[str, Dict[str, Any]]] = []
        if "error" in ev and "author" not in ev and "content" not in ev:
            err = ev["error"]
            self.error = err if isinstance(err, str) else _compact(err)
            return out
        author = ev.get("author") if isinstance(ev.get("author"), str) else "unknown"
        eid = ev.get("id")
        if author not in self.authors:
            self.authors.add(author)
            out.append(("agent_status", self._payload(eid, agent=author, status="active")))
        partial = ev.get("partial") is True
        content = ev.get("content") if isinstance(ev.get("content"), dict) else {}
        parts = content.get("parts") if isinstance(content.get("parts"), list) else []
        texts: List[str] = []
        has_call = False
        for p in parts:
            if not isinstance(p, dict):
                continue
            if isinstance(p.get("text"), str) and not p.get("thought"):
                texts.append(p["text"])
            fc = p.get("functionCall")
            if isinstance(fc, dict):
                has_call = True
                if not partial:
                    name = fc.get("name")
                    if name == "transfer_to_agent":
                        args = fc.get("args") if isinstance(fc.get("args"), dict) else {}
                        target = args.get("agent_name", args.get("agentName"))
                        out.append(("agent_status", self._payload(eid, agent=author, status="transferring", target=target)))
                    else:
                        out.append(("agent_status", self._payload(eid, agent=author, status="calling_tool", tool=name)))
            fr = p.get("functionResponse")
            if isinstance(fr, dict):
                out.append(("agent_status", self._payload(eid, agent=author, status="tool_complete", tool=fr.get("name"))))
        actions = ev.get("actions") if isinstance(ev.get("actions"), dict) else {}
        target = actions.get("transferToAgent", actions.get("transfer_to_agent"))
        if isinstance(target, str) and target:
            out.append(("agent_status", self._payload(eid, agent=author, status="transferred", target=target)))
        code = ev.get("errorCode")
        if code is not None:
            msg = ev.get("errorMessage")
            out.append(("agent_status", self._payload(eid, agent=author, status="error", errorCode=code, errorMessage=msg)))
            self.error = f"{code}: {msg}" if msg else str(code)
        text = "".join(texts)
        if text:
            out.append(("research_update", self._payload(eid, agent=author, content=text, partial=partial)))
            if not partial and not has_call:
                self.final_report = text
                self.final_agent = author
        return out

    def complete(self) -> Dict[str, Any]:
        p: Dict[str, Any] = {"sessionId": self.session_id, "status": "error" if self.error else "complete", "finalReport": self.final_report}
        if self.final_agent is not None:
            p["agent"] = self.final_agent
        if self.error:
            p["error"] = self.error
        return p


class LegacyRun:
    def __init__(self, key: Tuple[str, str, str], sub: Optional[str], replay: int) -> None:
        self.key = key
        self.sub = sub
        self.events: Deque[Tuple[int, bytes, bool, Any]] = deque(maxlen=replay)  # (id, bytes, final, replace-tag)
        self.next_id = 1
        self.finished = False
        self.finished_at = 0.0
        self.readers: Set[Reader] = set()
        self.ever_read = False
        self.task: Optional[asyncio.Task] = None
        self.ttl: Optional[asyncio.TimerHandle] = None
        self.replay_dropped = 0


class LegacyRuns:
    def __init__(self, cfg: Any, url: str) -> None:
        self.cfg = cfg
        self.url = url
        self.runs: Dict[Tuple[str, str, str], LegacyRun] = {}
        self.stats = {"runs": 0, "started": 0, "completed": 0, "failed": 0, "evicted": 0, "droppedUnread": 0,
                      "expired": 0, "replayDropped": 0, "readers": 0, "readersDisconnected": 0}

    # ------------------------------------------------------------------ runs
    def start(self, key: Tuple[str, str, str], sub: Optional[str], body: bytes) -> Optional[Tuple[int, str, str]]:
        """None when started, else (status, code, reason) of the refusal."""
        old = self.runs.get(key)
        if old is not None and not old.finished:
            return (409, "GW_LEGACY_RUN_ACTIVE", "a legacy run is already in progress for this session")
        if old is not None:
            self._drop(old)
        if len(self.runs) >= self.cfg.legacy_max_runs:
            finished = [r for r in self.runs.values() if r.finished]
            if not finished:
                return (503, "GW_LEGACY_BUSY", f"all {self.cfg.legacy_max_runs} legacy runs (LEGACY_MAX_RUNS) are still in progress")
            oldest = min(finished, key=lambda r: r.finished_at)
            self._drop(oldest)
            self.stats["evicted"] += 1
        run = LegacyRun(key, sub, self.cfg.legacy_replay_events)
        self.runs[key] = run
        self.stats["started"] += 1
        run.task = asyncio.ensure_future(self._run(run, body))
        return None

    async def _run(self, run: LegacyRun, body: bytes) -> None:
        deriver = Deriver(run.key[2])
        parser = SseParser()

        async def on_chunk(chunk: bytes) -> None:
            for data in parser.feed(chunk):
                for name, payload in deriver.derive(data):
                    self._publish(run, name, payload)

        try:
            kind, fr = await upstream.exchange(self.url, body, self.cfg.timeout_ms, on_chunk)
            if kind != "eof" and fr is not None:
                if kind == "status":
                    deriver.error = f"{fr['error']}: {fr['detail']}"
                else:
                    deriver.error = fr["error"]
        except asyncio.CancelledError:
            deriver.error = deriver.error or "gateway shutting down"
        finally:
            self.stats["failed" if deriver.error else "completed"] += 1
            self._publish(run, "research_complete", deriver.complete(), final=True)
            run.finished = True
            run.finished_at = time.monotonic()
            run.task = None
            if not run.readers:
                self._schedule_ttl(run)

    def _publish(self, run: LegacyRun, name: str, payload: Dict[str, Any], final: bool = False) -> None:
        eid = run.next_id
        run.next_id += 1
        data = f"event: {name}\nid: {eid}\ndata: {_compact(payload)}\n\n".encode("utf-8")
        if name == "research_update" and payload.get("partial") is False:
            # "a partial: false update replaces the partial ones before it": live readers already
            # have them (and replace them on their side); a late reader's replay gets only the final.
            agent = payload.get("agent")
            kept = [e for e in run.events if e[3] != ("partial", agent)]
            if len(kept) != len(run.events):
                run.events = deque(kept, maxlen=run.events.maxlen)
        tag = ("partial", payload.get("agent")) if name == "research_update" and payload.get("partial") is True else None
        if len(run.events) == run.events.maxlen:
            run.replay_dropped += 1
            self.stats["replayDropped"] += 1
        run.events.append((eid, data, final, tag))
        for r in list(run.readers):
            r.push(eid, data, final)

    def _schedule_ttl(self, run: LegacyRun) -> None:
        if run.ttl is not None:
            run.ttl.cancel()
        loop = asyncio.get_event_loop()
        run.ttl = loop.call_later(self.cfg.legacy_unread_ttl_ms / 1000, self._expire, run)

    def _expire(self, run: LegacyRun) -> None:
        run.ttl = None
        if run.readers or self.runs.get(run.key) is not run:
            return
        if not run.ever_read:
            self.stats["droppedUnread"] += 1
        else:
            self.stats["expired"] += 1
        self._drop(run)

    def _drop(self, run: LegacyRun) -> None:
        if run.ttl is not None:
            run.ttl.cancel()
            run.ttl = None
        if self.runs.get(run.key) is run:
            del self.runs[run.key]

    def get(self, key: Tuple[str, str, str]) -> Optional[LegacyRun]:
        return self.runs.get(key)

    # ------------------------------------------------------------------ readers
    def attach(self, run: LegacyRun, last_event_id: Optional[int]) -> Tuple[Reader, List[Tuple[int, bytes, bool]]]:
        reader = Reader()
        run.readers.add(reader)
        run.ever_read = True
        self.stats["readers"] += 1
        if run.ttl is not None:
            run.ttl.cancel()
            run.ttl = None
        held = [(e[0], e[1], e[2]) for e in run.events if last_event_id is None or e[0] > last_event_id]
        return reader, held

    def detach(self, run: LegacyRun, reader: Reader) -> None:
        run.readers.discard(reader)
        if reader.overflow:
            self.stats["readersDisconnected"] += 1
        if run.finished and not run.readers and self.runs.get(run.key) is run:
            self._schedule_ttl(run)

    def snapshot(self) -> Dict[str, Any]:
        s = dict(self.stats)
        s["runs"] = len(self.runs)
        s["active"] = sum(1 for r in self.runs.values() if not r.finished)
        return s

    def shutdown(self) -> None:
        for run in list(self.runs.values()):
            if run.task is not None:
                run.task.cancel()
