import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { minimalScenario } from './test-support.ts';
import { defaultScenariosDir, loadScenarioFile, loadScenarios, parseJson, scenarioSchemaIssues } from './loader.ts';

/** A minimal valid scenario; tests break one thing at a time. */
function validScenario(id = 'tiny_run'): Record<string, unknown> {
  return minimalScenario(id);
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scenario-loader-'));
  writeFileSync(join(dir, 'good_one.json'), JSON.stringify(validScenario('good_one'), null, 2));
  writeFileSync(join(dir, 'good_two.json'), `\uFEFF${JSON.stringify(validScenario('good_two'))}`);
  writeFileSync(join(dir, 'broken_syntax.json'), '{\n  "id": "broken_syntax",\n  "title": "x",\n}\n');
  const noAuthor = validScenario('no_author');
  noAuthor.upstream = { kind: 'run', steps: [{ model: { text: 'hello' } }] };
  writeFileSync(join(dir, 'no_author.json'), JSON.stringify(noAuthor));
  writeFileSync(join(dir, 'notes.txt'), 'not a scenario');
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('loadScenarios', () => {
  test('the shipped corpus loads with no errors', () => {
    const { scenarios, files, errors } = loadScenarios();
    expect(errors).toEqual([]);
    expect(scenarios.length).toBeGreaterThan(40);
    expect(files).toHaveLength(scenarios.length);
    expect(files.every((f) => f.startsWith(defaultScenariosDir))).toBe(true);
  });

  test('a broken file is reported with its file and position while the good files still load', () => {
    const { scenarios, errors } = loadScenarios(dir);
    expect(scenarios.map((s) => s.id)).toEqual(['good_one', 'good_two']);
    const syntax = errors.find((e) => e.file.endsWith('broken_syntax.json'));
    expect(syntax).toMatchObject({ kind: 'json', path: '' });
    expect(syntax?.message).toMatch(/^line 4, column 1: /);
  });

  test('a schema error names the JSON pointer of the missing property', () => {
    const { errors } = loadScenarios(dir);
    const schema = errors.filter((e) => e.file.endsWith('no_author.json'));
    expect(schema).toEqual([expect.objectContaining({ kind: 'schema', path: '/upstream/steps/0/model/author', message: "must have required property 'author'" })]);
  });

  test('files that are not .json are ignored', () => {
    const { errors } = loadScenarios(dir);
    expect(errors.some((e) => e.file.endsWith('notes.txt'))).toBe(false);
  });

  test('a missing folder is a configuration error naming the folder', () => {
    expect(() => loadScenarios(join(dir, 'nope'))).toThrow(/cannot read the scenario folder .*nope/);
  });
});

describe('loadScenarioFile', () => {
  test('a valid file loads as its scenario', () => {
    expect(loadScenarioFile(join(dir, 'good_one.json')).id).toBe('good_one');
  });

  test('a syntax error throws naming the file, the line and the column', () => {
    expect(() => loadScenarioFile(join(dir, 'broken_syntax.json'))).toThrow(/broken_syntax\.json is not valid JSON:\n {2}\/: line 4, column 1: /);
  });

  test('a schema error throws naming the file and the JSON pointer', () => {
    expect(() => loadScenarioFile(join(dir, 'no_author.json'))).toThrow(/no_author\.json is not a valid scenario .*\n {2}\/upstream\/steps\/0\/model\/author: must have required property 'author'/);
  });

  test('an unreadable path throws naming it', () => {
    expect(() => loadScenarioFile(join(dir, 'absent.json'))).toThrow(/absent\.json cannot be read/);
  });
});

describe('scenarioSchemaIssues', () => {
  test('an upstream of one kind reports only that kind\'s rules', () => {
    const s = validScenario();
    s.upstream = { kind: 'http', status: 404, steps: [] };
    expect(scenarioSchemaIssues(s).map((i) => [i.path, i.keyword])).toEqual([['/upstream/steps', 'additionalProperties']]);
  });

  test('a run upstream without steps reports the missing steps only', () => {
    const s = validScenario();
    s.upstream = { kind: 'run' };
    expect(scenarioSchemaIssues(s).map((i) => [i.path, i.message])).toEqual([['/upstream/steps', "must have required property 'steps'"]]);
  });

  test('an unknown upstream kind is reported at the kind', () => {
    const s = validScenario();
    s.upstream = { kind: 'websocket', steps: [] };
    const paths = scenarioSchemaIssues(s).map((i) => i.path);
    expect(paths).toContain('/upstream/kind');
  });

  test('a step with an unknown property reports that property, not the alternatives it did not choose', () => {
    const s = validScenario();
    s.upstream = { kind: 'run', steps: [{ modle: { author: 'a' } }] };
    expect(scenarioSchemaIssues(s).map((i) => [i.path, i.keyword])).toEqual([['/upstream/steps/0/modle', 'additionalProperties']]);
  });

  test('a step with two step types reports that it must match exactly one', () => {
    const s = validScenario();
    s.upstream = { kind: 'run', steps: [{ model: { author: 'a' }, tools: { author: 'a', responses: [{ name: 'x', response: {} }] } }] };
    expect(scenarioSchemaIssues(s).map((i) => [i.path, i.keyword])).toEqual([['/upstream/steps/0', 'oneOf']]);
  });

  test('a missing top-level property keeps its pointer beside deeper issues', () => {
    const s = validScenario();
    delete s.title;
    (s.session as Record<string, unknown>).userId = '';
    expect(scenarioSchemaIssues(s).map((i) => i.path).sort()).toEqual(['/session/userId', '/title']);
  });
});

describe('parseJson', () => {
  test('an unterminated document reports the end position', () => {
    expect(parseJson('{\n "a": ')).toEqual({ error: expect.stringMatching(/^line 2, column 7: Unexpected end of JSON input/) as unknown });
  });

  test('a leading BOM is accepted', () => {
    expect(parseJson('\uFEFF{"a":1}')).toEqual({ value: { a: 1 } });
  });
});
