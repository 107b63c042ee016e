import { describe, it } from 'vitest';

import { byId } from '../../support/harness/runNode.mts';
import { nodeType } from '../nodeDescription.mts';
import { expectOutputMatches, outputSchema } from '../outputSchema.mts';
import { NODE_DIR, performanceSandbox } from './performanceNode.mts';

const { run } = performanceSandbox();
/** The node's one version: n8n looks its schemas up under `__schema__/v<version>`. */
const { version } = (await nodeType('performanceService')).description;

describe('output schemas', () => {
	const cases = [
		{ resource: 'site', operation: 'getAll', parameters: { returnAll: true } },
		{ resource: 'site', operation: 'get', parameters: { siteId: byId('site_4') } },
		{ resource: 'site', operation: 'get', parameters: { siteId: byId('site_1') } },
		{ resource: 'site', operation: 'reoptimize', parameters: { siteId: byId('site_1') } },
		{ resource: 'audit', operation: 'getAll', parameters: { limit: 100 } },
		{ resource: 'system', operation: 'getHealth', parameters: {} },
	];

	for (const { resource, operation, parameters } of cases) {
		it(`${resource}.${operation}: n8n finds the schema and the default output matches it`, async () => {
			const schema = outputSchema(NODE_DIR, resource, operation, version as number);
			const result = await run({ resource, operation, ...parameters });
			expectOutputMatches(schema, result.json);
		});
	}
});
