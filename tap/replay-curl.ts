/**
 * The curl line that replays a run through the tap (the live page shows it under a failing run's
 * first finding): the same method, path, body and content headers, sent to the tap again so the
 * replay is judged too. Credentials never appear: Authorization, cookies, CSRF and API-key headers
 * become shell variables the user fills ($TOKEN, $COOKIE...), and the body passes the recorder's
 * redaction rules (recorder/redact.ts), as a saved run does.
 */
import { createRedactor, defaultRedactions, droppedHeaders } from '../recorder/redact.ts';

const kept = new Set(['content-type', 'accept']);
const placeholders: Record<string, string> = { authorization: 'Bearer $TOKEN', 'proxy-authorization': '$PROXY_AUTHORIZATION', cookie: '$COOKIE', 'x-csrf-token': '$CSRF_TOKEN', 'x-api-key': '$API_KEY', 'x-goog-api-key': '$API_KEY' };

/** A POSIX shell word in single quotes. */
const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlReplay(tapUrl: string, request: { method: string; url: string; headers: ReadonlyArray<readonly [string, string]> }, body: string | undefined): string {
  const redactor = createRedactor(defaultRedactions);
  const parts = ['curl', '-N', '-X', request.method, quote(`${tapUrl.replace(/\/$/, '')}${request.url}`)];
  for (const [name, value] of request.headers) {
    const lower = name.toLowerCase();
    if (kept.has(lower)) parts.push('-H', quote(`${name}: ${value}`));
    // Double quotes so the shell fills the variable in.
    else if (droppedHeaders.has(lower)) parts.push('-H', `"${name}: ${placeholders[lower] ?? `$${lower.toUpperCase().replace(/-/g, '_')}`}"`);
  }
  if (body !== undefined && body !== '') parts.push('-d', quote(redactor.text(body)));
  return parts.join(' ');
}
