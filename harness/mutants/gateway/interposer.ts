/**
 * A break that changes what the gateway does upstream (a read timeout, headers it should not send,
 * an upstream it forgets to close) cannot edit the reference's code, so the mutant host puts this
 * proxy between the gateway and its ADK_UPSTREAM_URL: every upstream exchange passes through it,
 * unchanged unless the break's hooks say otherwise. The gateway sees a real upstream; the mock sees
 * what such a gateway would have sent, and when it would have closed.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type UpstreamHooks = {
  /** The headers sent on to the real upstream (Host is set from its URL unless this sets one). */
  headers?: (headers: http.OutgoingHttpHeaders, body: string) => http.OutgoingHttpHeaders;
  /** Silence on the upstream's body after which the exchange is given up, in ms: both sides are closed (a read timeout). */
  readTimeoutMs?: number;
  /** Called with the upstream request's body when the read timeout gave its exchange up, just before the gateway's side is closed. */
  onGiveUp?: (body: string) => void;
  /** The gateway closed the upstream request with this body early: keep the real upstream request open (a leak). */
  keepUpstream?: (body: string) => boolean;
  /** An upstream 5xx is sent again once (a retry), and the gateway then gets the first answer. */
  retry5xx?: boolean;
};

export type Interposer = { url: string; close: () => Promise<void> };

/** How long the interposer waits, after the gateway closed early, before it decides to keep the upstream open. */
const settleMs = 150;

export async function startInterposer(target: string, hooks: UpstreamHooks): Promise<Interposer> {
  const base = target.replace(/\/+$/, '');
  const upstreams = new Set<http.ClientRequest>();
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const body = Buffer.concat(parts).toString('utf8');
      const { host: _host, connection: _c, ...forwarded } = req.headers;
      const headers = hooks.headers ? hooks.headers({ ...forwarded }, body) : forwarded;
      const up = http.request(`${base}${req.url ?? '/'}`, { method: req.method, headers, agent: false });
      upstreams.add(up);
      let finished = false;
      let timer: NodeJS.Timeout | undefined;
      const giveUp = () => { finished = true; hooks.onGiveUp?.(body); res.destroy(); up.destroy(); };
      const arm = () => {
        if (hooks.readTimeoutMs === undefined) return;
        clearTimeout(timer);
        timer = setTimeout(giveUp, hooks.readTimeoutMs);
      };
      up.on('response', (upRes) => {
        if (hooks.retry5xx && (upRes.statusCode ?? 0) >= 500) {
          const parts: Buffer[] = [];
          upRes.on('data', (c: Buffer) => parts.push(c));
          upRes.on('end', () => {
            const again = http.request(`${base}${req.url ?? '/'}`, { method: req.method, headers, agent: false }, (r2) => {
              r2.resume();
              r2.on('end', () => { finished = true; res.writeHead(upRes.statusCode ?? 502, upRes.headers); res.end(Buffer.concat(parts)); });
            });
            again.on('error', () => { finished = true; res.destroy(); });
            again.end(body);
          });
          return;
        }
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        arm();
        upRes.on('data', (chunk: Buffer) => { arm(); res.write(chunk); });
        upRes.on('end', () => { finished = true; clearTimeout(timer); res.end(); });
        upRes.on('error', () => { finished = true; clearTimeout(timer); res.destroy(); });
      });
      up.on('error', () => { finished = true; clearTimeout(timer); res.destroy(); });
      up.on('close', () => { clearTimeout(timer); upstreams.delete(up); });
      // The gateway left before the upstream finished (its client left, or its timeout fired).
      res.on('close', () => {
        if (finished) return;
        clearTimeout(timer);
        setTimeout(() => { if (!hooks.keepUpstream?.(body)) up.destroy(); }, settleMs);
      });
      up.end(body);
    });
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(0, '127.0.0.1', resolve); });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const up of upstreams) up.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
