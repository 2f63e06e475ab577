/**
 * The smallest valid scenario, for tests that break one thing at a time (the loader's and the
 * linter's). Not shipped in the package (package.json `files` leaves out test-support.ts).
 */
export function minimalScenario(id = 'tiny_run', options: { text?: string; invocationId?: string } = {}): Record<string, any> {
  const text = options.text ?? 'hello';
  return {
    id,
    title: 'a one-event run ends at EOF',
    family: 'streaming',
    tags: ['text'],
    specRefs: [{ doc: 'adk-wire-format', section: '§5a' }],
    dialect: 'adk-js',
    replays: 'adk-js 2.0.0 non-streaming',
    session: { userId: 'u1', sessionId: 's1' },
    request: { message: 'hi' },
    upstream: { kind: 'run', ...(options.invocationId ? { invocationId: options.invocationId } : {}), steps: [{ model: { author: 'assistant', text } }] },
    expect: { status: 200, outcome: 'complete', frames: 1, completionPoint: 0, finalText: text },
  };
}
