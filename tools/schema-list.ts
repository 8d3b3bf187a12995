/** Every JSON Schema published under schemas/, from the zod definitions of each layer. */
import { generatedSchemas } from '../src/core/schemas.js';
import { summaryJsonSchema } from '../src/agent/report/summary-schema.js';

export function allSchemas(): Record<string, unknown> {
  return { ...generatedSchemas(), 'audit-summary.schema.json': summaryJsonSchema() };
}
