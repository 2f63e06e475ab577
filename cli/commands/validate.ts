/**
 * `adk-conformance validate FILE.ndjson [--schema NAME]`: validate every line of an NDJSON file
 * (or stdin, `-`) against one of the kit's schemas. One line per error, `FILE:LINE: <pointer>
 * <message>` (`FILE:LINE:COL: invalid JSON: ...` for a line that does not parse), then a summary.
 * Exit 0 when every line is valid, 1 when one is not (or there is no line at all: an empty
 * stream proves nothing), 2 on a usage error.
 */
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { UsageError, nearest, parseOptions } from '../args.ts';
import { schemaNames, validate, type SchemaRef } from '../../schemas/registry.ts';

export type CommandIo = { stdout: (text: string) => void; stderr: (text: string) => void; stdin: Readable };

const processIo: CommandIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), stdin: process.stdin };

export const defaultSchema = 'agent-briefing-event';

const help = `usage: adk-conformance validate FILE.ndjson|- [FILE...] [--schema NAME]

Validate each line of an NDJSON file ('-' reads stdin) against a schema of the kit.
Empty lines are ignored; each error prints as FILE:LINE: <JSON pointer> <message>.

options:
  --schema NAME   ${schemaNames.join(', ')}
                  (default ${defaultSchema}); NAME#/definitions/DEF selects one definition

exit: 0 every line valid; 1 a line is invalid or not JSON, or there is no line; 2 usage error`;

/** The schema ref of --schema, or a usage error naming the nearest known schema. */
export function resolveSchema(value: string | undefined): SchemaRef {
  const ref = value ?? defaultSchema;
  const name = ref.split('#')[0] ?? '';
  if (!(schemaNames as readonly string[]).includes(name)) {
    // nearest() catches typos; a prefix or fragment (`agent-briefing`) is caught by containment.
    const key = name.toLowerCase().replace(/[_\s]/g, '-');
    const near = nearest(key, schemaNames) ?? (key === '' ? undefined : schemaNames.find((n) => n.includes(key)));
    throw new UsageError(`unknown schema '${name}'${near ? ` (did you mean '${near}'?)` : ''}; the schemas are: ${schemaNames.join(', ')}.`);
  }
  try {
    validate(ref as SchemaRef, null);
  } catch (error) {
    throw new UsageError(`--schema ${ref}: ${(error as Error).message}`);
  }
  return ref as SchemaRef;
}

/** Lines as bytes, split on LF only (NDJSON), a trailing CR dropped; bytes so bad UTF-8 is caught per line. */
async function* byteLines(stream: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let pending = Buffer.alloc(0);
  for await (const chunk of stream) {
    pending = Buffer.concat([pending, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    let lf = pending.indexOf(0x0a);
    while (lf >= 0) {
      yield pending.subarray(0, lf);
      pending = pending.subarray(lf + 1);
      lf = pending.indexOf(0x0a);
    }
  }
  if (pending.length > 0) yield pending;
}

type Tally = { lines: number; valid: number; invalid: number; errors: number };

async function validateStream(label: string, stream: AsyncIterable<Buffer | string>, schema: SchemaRef, io: CommandIo): Promise<Tally> {
  const tally: Tally = { lines: 0, valid: 0, invalid: 0, errors: 0 };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let number = 0;
  // A file whose first line is not JSON may be one pretty-printed document: its lines are held
  // (bounded) until the end decides, so such a file gets one clear message, not one per line.
  let held: string[] | undefined;
  let heldChars = 0;
  const whole: string[] = [];
  const report = (line: number, text: string) => {
    tally.errors += 1;
    if (held) held.push(`${label}:${line}${text}\n`);
    else io.stdout(`${label}:${line}${text}\n`);
  };
  for await (const bytes of byteLines(stream)) {
    number += 1;
    if (held && heldChars < maxHeldChars) { const t = bytes.toString('utf8'); whole.push(t); heldChars += t.length; }
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      tally.lines += 1; tally.invalid += 1;
      report(number, ': invalid UTF-8: the line is not valid UTF-8 text');
      continue;
    }
    // A BOM only at the start of the stream, as editors write it.
    if (number === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') continue;
    tally.lines += 1;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (tally.lines === 1 && held === undefined) { held = []; whole.push(text); heldChars = text.length; }
      const where = locateJsonError(text) ?? { column: 1, message: (error as Error).message.slice(0, 200) };
      tally.invalid += 1;
      report(number, `:${where.column}: invalid JSON: ${where.message}`);
      continue;
    }
    const { valid, errors } = validate(schema, value);
    if (valid) { tally.valid += 1; continue; }
    tally.invalid += 1;
    for (const e of errors) report(number, `: ${e.path || '(root)'} ${e.message}${e.keyword === 'additionalProperties' ? ` ('${String(e.params.additionalProperty)}')` : ''}`);
  }
  if (held) {
    const document = heldChars < maxHeldChars ? parsesWhole(whole.join('\n')) : undefined;
    if (document !== undefined) {
      // Said once, then judged for what it is: an array's elements, or the one document.
      const values = Array.isArray(document) ? document : [document];
      const hint = Array.isArray(document) ? `jq -c '.[]' ${label === '<stdin>' ? 'FILE' : label}` : `jq -c . ${label === '<stdin>' ? 'FILE' : label}`;
      io.stdout(`${label}: not NDJSON but one pretty-printed JSON ${Array.isArray(document) ? `array over ${number} lines: each of its ${values.length} elements is validated` : `document over ${number} lines: validated as one value`} (NDJSON has one value per line: ${hint} makes it).\n`);
      const tally2: Tally = { lines: values.length, valid: 0, invalid: 0, errors: 0 };
      values.forEach((value, i) => {
        const { valid, errors } = validate(schema, value);
        if (valid) { tally2.valid += 1; return; }
        tally2.invalid += 1;
        for (const e of errors) { tally2.errors += 1; io.stdout(`${label}${Array.isArray(document) ? `[${i}]` : ''}: ${e.path || '(root)'} ${e.message}\n`); }
      });
      return tally2;
    }
    for (const line of held) io.stdout(line);
  }
  return tally;
}

/** What a file's lines joined back parse to, when they are one JSON value. */
function parsesWhole(text: string): unknown {
  try { return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown; } catch { return undefined; }
}

/** The most of a suspected pretty-printed file held to try it whole (beyond it, per-line errors). */
const maxHeldChars = 64 * 1024 * 1024;

export async function run(argv: string[], io: CommandIo = processIo): Promise<number> {
  const { values, positionals } = parseOptions(argv, { schema: { type: 'string' } }, help);
  if (values.help) { io.stdout(`${help}\n`); return 0; }
  if (positionals.length === 0) throw new UsageError(`no file given: pass an NDJSON file, or '-' for stdin.\n\n${help}`);
  if (positionals.filter((p) => p === '-').length > 1) throw new UsageError("'-' (stdin) can be given once.");
  const schema = resolveSchema(values.schema);
  const total: Tally = { lines: 0, valid: 0, invalid: 0, errors: 0 };
  for (const file of positionals) {
    const label = file === '-' ? '<stdin>' : file;
    let tally: Tally;
    try {
      tally = await validateStream(label, file === '-' ? io.stdin : createReadStream(file), schema, io);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code) throw new UsageError(`cannot read ${label}: ${(error as Error).message}.`);
      throw error;
    }
    for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += tally[key];
  }
  const where = positionals.length === 1 ? (positionals[0] === '-' ? '<stdin>' : positionals[0]) : `${positionals.length} files`;
  if (total.lines === 0) {
    io.stdout(`${where}: no line to validate against ${schema}; an empty stream proves nothing.\n`);
    return 1;
  }
  io.stdout(`${where}: ${total.lines} line${total.lines === 1 ? '' : 's'} against ${schema}: ${total.valid} valid, ${total.invalid} invalid (${total.errors} error${total.errors === 1 ? '' : 's'}).\n`);
  return total.invalid === 0 ? 0 : 1;
}

/**
 * Where a line stops being JSON (RFC 8259), as a 1-based column in characters and a reason:
 * JSON.parse on Node 20 names neither position nor column for most errors.
 */
export function locateJsonError(text: string): { column: number; message: string } | undefined {
  let i = 0;
  // Annotated so that a call narrows like `throw` does.
  const fail: (message: string) => never = (message) => { throw Object.assign(new Error(message), { offset: i }); };
  const ws = () => { while (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r') i++; };
  const describe = () => (i >= text.length ? 'the line ends' : `unexpected character ${JSON.stringify(text[i])}`);
  const literal = (word: string) => { if (!text.startsWith(word, i)) fail(`${describe()} (expected ${word})`); i += word.length; };
  const string = () => {
    i++;
    for (;;) {
      const c = text[i];
      if (c === undefined) fail('unterminated string');
      if (c === '"') { i++; return; }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') { if (!/^[0-9A-Fa-f]{4}$/.test(text.slice(i + 2, i + 6))) fail('\\u must be followed by 4 hex digits'); i += 6; continue; }
        if (e === undefined || !'"\\/bfnrt'.includes(e)) fail(`invalid escape \\${e ?? ''}`);
        i += 2;
        continue;
      }
      if ((c.codePointAt(0) ?? 0) < 0x20) fail('control character in a string (escape it)');
      i++;
    }
  };
  const number = () => {
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const found = m.exec(text);
    if (!found) fail('invalid number');
    i += found[0].length;
    if (/[0-9.eE+-]/.test(text[i] ?? '')) fail('invalid number');
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; ws();
      if (text[i] === '}') { i++; return; }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`${describe()} (expected a property name in double quotes)`);
        string(); ws();
        if (text[i] !== ':') fail(`${describe()} (expected ':')`);
        i++; value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return; }
        fail(`${describe()} (expected ',' or '}')`);
      }
    }
    if (c === '[') {
      i++; ws();
      if (text[i] === ']') { i++; return; }
      for (;;) {
        value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return; }
        fail(`${describe()} (expected ',' or ']')`);
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return number();
    fail(`${describe()} (expected a JSON value)`);
  };
  try {
    value(); ws();
    if (i < text.length) fail(`${describe()} after the JSON value`);
    return undefined;
  } catch (error) {
    // Nesting deeper than the stack: JSON.parse's own message stands, at column 1.
    if (error instanceof RangeError) return undefined;
    const offset = (error as { offset?: number }).offset ?? 0;
    return { column: [...text.slice(0, offset)].length + 1, message: (error as Error).message };
  }
}
