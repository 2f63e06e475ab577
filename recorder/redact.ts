/**
 * Secrets never land in a recording. Headers that carry credentials are dropped whole; every
 * text that is kept (the message, the response body, header values, the session state) goes
 * through a list of regular expressions, the documented defaults plus the user's own
 * (`--redact REGEX`), and each match becomes `[REDACTED]`. The replacement has no quote and no
 * backslash, and the default patterns never match one, so a JSON string stays a JSON string.
 */

export const redactedMark = '[REDACTED]';

export type RedactionRule = {
  name: string;
  pattern: RegExp;
  /** What replaces a match; `$1` keeps a captured prefix such as `"password": `. Default: the mark. */
  replacement?: string;
};

/** Header names (lowercase) dropped from every recording, request or response. */
export const droppedHeaders: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'set-cookie2', 'x-api-key', 'x-goog-api-key', 'x-csrf-token']);

/** The default list (docs/recording.md shows it); a user list adds to it, never replaces it. */
export const defaultRedactions: readonly RedactionRule[] = [
  { name: 'bearer-token', pattern: /\bBearer\s+[A-Za-z0-9._~+/-]+=*/g, replacement: `Bearer ${redactedMark}` },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g },
  { name: 'openai-anthropic-key', pattern: /\bsk-[A-Za-z0-9_-]{16,}/g },
  { name: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { name: 'github-token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g },
  { name: 'aws-access-key-id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { name: 'slack-token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { name: 'private-key-block', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g },
  {
    // `password: hunter2`, `"api_key":"abc"`, `token=abc` (also inside escaped JSON text): keep the key, drop the value.
    name: 'secret-assignment',
    pattern: /((?:api[_-]?key|secret|password|passwd|access[_-]?token|refresh[_-]?token|client[_-]?secret|auth[_-]?token)(?:\\?")?\s*[:=]\s*(?:\\?")?)[^"\\\s,;&}]{3,}/gi,
    replacement: `$1${redactedMark}`,
  },
];

/** Compile `--redact` values: each is a JavaScript regular expression source, applied globally. */
export function userRedactions(sources: readonly string[]): RedactionRule[] {
  return sources.map((source, i) => {
    if (source.length === 0) throw new TypeError(`--redact #${i + 1} is empty; give a regular expression such as 'ACME-[0-9]{6}'`);
    let pattern: RegExp;
    try {
      pattern = new RegExp(source, 'g');
    } catch (error) {
      throw new TypeError(`--redact ${JSON.stringify(source)} is not a valid regular expression: ${(error as Error).message}`);
    }
    if (pattern.test('')) throw new TypeError(`--redact ${JSON.stringify(source)} matches the empty string, so it would redact between every character; make it match at least one character`);
    return { name: `user-${i + 1}`, pattern };
  });
}

export type Redactor = {
  /** The text with every match of every rule replaced. */
  text: (value: string) => string;
  /** How many matches each rule replaced so far (for the record command's summary). */
  counts: () => Record<string, number>;
};

export function createRedactor(rules: readonly RedactionRule[]): Redactor {
  const counts: Record<string, number> = {};
  return {
    text(value) {
      let out = value;
      for (const rule of rules) {
        rule.pattern.lastIndex = 0;
        out = out.replace(rule.pattern, (...args: unknown[]) => {
          counts[rule.name] = (counts[rule.name] ?? 0) + 1;
          const groups = args.slice(1, -2) as Array<string | undefined>;
          return (rule.replacement ?? redactedMark).replace(/\$(\d)/g, (_, n: string) => groups[Number(n) - 1] ?? '');
        });
      }
      return out;
    },
    counts: () => ({ ...counts }),
  };
}

/** Response headers as recorded: credential headers dropped, the other values redacted. */
export function redactHeaders(headers: ReadonlyArray<readonly [string, string]>, redactor: Redactor): Array<[string, string]> {
  return headers.filter(([name]) => !droppedHeaders.has(name.toLowerCase())).map(([name, value]) => [name, redactor.text(value)]);
}

/** Deep-redact the strings of a JSON value (session state). */
export function redactJson(value: unknown, redactor: Redactor): unknown {
  if (typeof value === 'string') return redactor.text(value);
  if (Array.isArray(value)) return value.map((v) => redactJson(v, redactor));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactJson(v, redactor)]));
  }
  return value;
}

/** `http://user:pass@host:8080/x?key=1` -> `http://host:8080`: a recording names only the origin. */
export function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(an upstream)';
  }
}
