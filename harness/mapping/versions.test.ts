/**
 * The one mapping covers both spec versions (issue 31 §2): every property a version's schema
 * requires (top level and `content`) is a field of the mapping in that version, and no field of
 * one version only is listed for the other.
 */
import { describe, expect, it } from 'vitest';
import { schemaDocument } from '../../schemas/registry.ts';
import { inSpec, specSchemas, specVersions } from '../spec-version.ts';
import { loadMapping } from './index.ts';

type Node = { required?: string[]; properties?: Record<string, Node> };

describe('the mapping\'s fields per spec version', () => {
  const mapping = loadMapping();
  const fieldsOf = (version: (typeof specVersions)[number]) => new Set(mapping.fields.filter((f) => inSpec({ ...(f.introducedIn ? { introducedIn: f.introducedIn } : {}), ...(f.removedIn ? { removedIn: f.removedIn } : {}) }, version)).map((f) => f.field));

  it.each(specVersions.map((v) => [v]))('spec %s: every required property of its schema is a field of the mapping in it', (version) => {
    const schema = schemaDocument(specSchemas[version].schema) as Node;
    const required = [...(schema.required ?? []), ...(schema.properties?.content?.required ?? []).map((k) => `content.${k}`)];
    const fields = fieldsOf(version);
    // proof_layer itself is described by its members.
    const missing = required.filter((k) => !fields.has(k) && !(k === 'proof_layer' && [...fields].some((f) => f.startsWith('proof_layer.'))) && !(k === 'content' && fields.has('content.summary')));
    expect(missing).toEqual([]);
  });

  it('the fields spec 1.1 brought in are not fields of 1.0, and 1.1 says how it spells the types', () => {
    expect([...fieldsOf('1.1')].filter((f) => !fieldsOf('1.0').has(f)).sort()).toEqual(['content.suggested_actions', 'schema_version', 'severity', 'ui_binding']);
    expect(mapping.fields.find((f) => f.field === 'type')?.versions?.['1.1']?.value).toMatch(/insight, alert, action_required or status_update/);
  });
});
