/**
 * The types of `adk-conformance/msw` for a CommonJS consumer (a package without "type": "module",
 * as `npm init -y` makes). Under `moduleResolution: nodenext` such a file's `import ... from 'msw'`
 * resolves msw's CommonJS declarations, while msw.d.ts (ESM, like the whole kit) resolves its ESM
 * ones: two declarations of msw's handler classes, which TypeScript refuses to mix (a protected
 * member). Here `msw` is resolved the consumer's way, so the handlers fit its `setupServer`. The
 * runtime is the same ESM file either way (Node 22.12+ requires it). The build copies this file
 * to dist/mock-adk/ (package.json "build"); test/package.test.ts type-checks a CommonJS consumer.
 */
import type { HttpHandler } from 'msw';
import type { MockHandlersOptions, MockHandlers as ModuleMockHandlers } from './msw.js';

export type { MockHandlersOptions };
export type MockHandlers = HttpHandler[] & { state: ModuleMockHandlers['state'] };
export declare function createMockHandlers(options: MockHandlersOptions): MockHandlers;
