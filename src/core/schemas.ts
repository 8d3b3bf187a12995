/** The JSON Schemas published under schemas/ for scripts that consume our JSON. */
import { runResultJsonSchema } from './run-result.js';

export function generatedSchemas(): Record<string, unknown> {
  return {
    'run-result.schema.json': runResultJsonSchema(),
  };
}
