/**
 * The one cookie reader of the gateway (RFC 6265 §5.2's `name=value; name2=value2` header);
 * a malformed pair is skipped, never fatal, and the first occurrence of a name wins.
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  if (!header) return cookies;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    let value = pair.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (name === '' || cookies.has(name)) continue;
    try { cookies.set(name, decodeURIComponent(value)); } catch { cookies.set(name, value); }
  }
  return cookies;
}
