import { defineConfig } from 'vitest/config';
import { pythonFirst } from './scripts/python-first.ts';
import { LongestFirstSequencer } from './scripts/test-sequencer.ts';

// Tests open real sockets on 127.0.0.1 and spawn child processes. Six workers on the 2-core machines: the
// files wait on scenario timers, held-open streams and child processes, and more workers fill those waits:
// two -> three 1,138.8 s -> 965.5 s wall, the same 1.6 ks of CPU (2026-11-28); three -> four, both not
// isolated, 789.2 s -> 652.2 s wall, 1,200.5 s -> 1,151.8 s of CPU, every file passed (2026-11-29);
// four -> six -> eight on Node 24, every file passed each time: 417.8 s (clean-clone CI) -> 355.4 and
// 334.4 s -> 362.5 s wall, the machine idle 43 s of 669 core-seconds at six and 5 s at eight, where the
// workers' own imports grew (2026-12-02, docs/performance.md).
// NODE_EXTRA_CA_CERTS (set on the development machines for their TLS egress proxy) makes Node 20 read
// and parse a CA bundle at every start: `node -e 0` 0.08 s of CPU with it, 0.02 s without (Node 24, which
// the scripts run on, 0.02 s either way: kept for a suite run on an older Node), and the suite
// starts hundreds of Node processes (the CLI, gateway and proxy instances, memory hosts). None of them
// speaks TLS: everything they reach is on 127.0.0.1. So the workers and what they start go without it;
// the one test that reaches the npm registry (test/package.test.ts) hands it back to npm.
const extraCaCerts = process.env.NODE_EXTRA_CA_CERTS;
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['node_modules/**', 'reports/**'],
    // Hang bounds, not speed assertions: 30 s until clean-clone CI on a slower 2-core machine (2026-11-30,
    // 861 to 913 s of vitest, four workers) ran tests past it that take a few seconds on a quiet one.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 6,
    // One worker process runs many files: isolated, each file imported the kit's modules again in a fresh
    // process (vitest's "import" summed 96.8 s over the suite, 20.4 s not isolated). The 199 files under
    // 3 s of CPU each: 163.4 s of CPU and 92.1 s wall isolated, 68.0 s and 43.6 s not (docs/performance.md).
    // No file relies on a fresh module state: fake timers and spies are restored in afterEach, and each
    // file starts its own servers and processes.
    isolate: false,
    // The longest files first, also in a fresh clone where vitest has no durations of its own (scripts/test-sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    // The kit's own processes (the CLI a test starts, the gateway and proxy the harness launches) run
    // the compiled kit, emitted once before the tests (scripts/checkout-dist.ts).
    globalSetup: ['./scripts/checkout-dist.ts', './scripts/tests-tmpdir.ts'],
    // ADK_CONFORMANCE_TEST_CPU=FILE records each file's CPU (scripts/test-cpu-record.ts); a no-op without it.
    setupFiles: ['./scripts/test-cpu-record.ts'],
    env: {
      PATH: pythonFirst(process.env.PATH ?? ''),
      ADK_CONFORMANCE_FROM_DIST: '1',
      ...(extraCaCerts === undefined ? {} : { ADK_CONFORMANCE_TEST_EXTRA_CA_CERTS: extraCaCerts }),
    },
  },
});
