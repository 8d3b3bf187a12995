/** What the taxonomy needs to know about the fixed environment: importable modules and unavailable libraries. */
import { loadEnvironmentInfo } from '../../fixers/rules/environment-info.js';
import type { EnvironmentFacts } from './taxonomy.js';

export async function loadEnvironmentFacts(name: string): Promise<EnvironmentFacts> {
  const info = await loadEnvironmentInfo(name);
  return { modules: info.modules, unavailable: new Set(Object.keys(info.unavailable)) };
}
