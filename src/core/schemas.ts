/** The JSON Schemas published under schemas/ for scripts that consume our JSON. */
import { z } from 'zod';
import { runResultJsonSchema } from './run-result.js';
import { ModernizeReport } from './modernize-report.js';
import { TrajectoryLine } from './trajectory-schema.js';
import { ReviewRecord } from './review-record.js';

export function generatedSchemas(): Record<string, unknown> {
  return {
    'run-result.schema.json': runResultJsonSchema(),
    'modernize-report.schema.json': z.toJSONSchema(ModernizeReport),
    'trajectory-event.schema.json': z.toJSONSchema(TrajectoryLine),
    'review-record.schema.json': z.toJSONSchema(ReviewRecord),
  };
}
