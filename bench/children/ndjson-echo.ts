/**
 * The baseline for the NDJSON stdio filters: reads lines, parses each as JSON and writes it back
 * re-serialised, one write per input line (the filters' contract: output is written as soon as
 * the line that caused it is read), waiting for 'drain' when stdout pushes back. What is left
 * of a filter's time beyond this is the filter's own work.
 *
 *   node --import tsx bench/children/ndjson-echo.ts < in.ndjson > out.ndjson
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  if (line === '') continue;
  let value: unknown;
  try { value = JSON.parse(line); } catch { value = { invalid: line.length }; }
  if (!process.stdout.write(JSON.stringify(value) + '\n')) await once(process.stdout, 'drain');
}
