/**
 * The one registry of error codes. Each part keeps its own table (so parts can grow without
 * touching each other) and this module merges them, refusing duplicates at load.
 * docs/error-codes.md documents every code; test/error-codes.test.ts keeps the two in step.
 */
export type ErrorCodeEntry = {
  /** HTTP status when the code is answered over HTTP. */
  status?: number;
  /** What happened, as a sentence. */
  message: string;
  /** How to fix it. */
  fix: string;
};

export type ErrorCodeTable = Record<string, ErrorCodeEntry>;

export function mergeErrorCodes(tables: Record<string, ErrorCodeTable>): Readonly<Record<string, ErrorCodeEntry & { part: string }>> {
  const merged: Record<string, ErrorCodeEntry & { part: string }> = {};
  for (const [part, table] of Object.entries(tables)) {
    for (const [code, entry] of Object.entries(table)) {
      const existing = merged[code];
      if (existing) throw new Error(`error code ${code} is defined twice (in ${existing.part} and ${part}); codes are never reused, pick a new one`);
      merged[code] = { ...entry, part };
    }
  }
  return Object.freeze(merged);
}
