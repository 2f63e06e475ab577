/**
 * report.json: the RunResult itself, valid against schemas/report.schema.json. It is the input of
 * `report merge` and of CI scripts (`jq -r .verdict reports/latest/report.json`), so it carries
 * every requirement and scenario, passing ones included.
 */
import type { RunResult } from '../model.ts';

export function renderJson(run: RunResult): string {
  return `${JSON.stringify(run, null, 2)}\n`;
}
