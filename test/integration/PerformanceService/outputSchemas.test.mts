import { describe, it } from 'vitest';

import { byId } from '../../support/harness/runNode.mts';
import { nodeType, operationsOf, sampleParametersOf } from '../nodeDescription.mts';
import { expectOutputMatches, outputSchema } from '../outputSchema.mts';
import { NODE_DIR, performanceSandbox } from './performanceNode.mts';

/** A value for each parameter the operations need, by parameter name, valid in the seeds. */
const SAMPLES = { returnAll: true, siteId: byId('site_1'), limit: 100 };

const { run } = performanceSandbox();
const type = await nodeType('performanceService');
/** The node's one version: n8n looks its schemas up under `__schema__/v<version>`. */
const { version } = type.description;

describe('output schemas', () => {
	for (const offered of operationsOf(type)) {
		const { resource, operation } = offered;
		it(`${resource}.${operation}: n8n finds the schema and the default output matches it`, async () => {
			const schema = outputSchema(NODE_DIR, resource, operation, version as number);
			const parameters = sampleParametersOf(type, offered, SAMPLES);
			const result = await run({ resource, operation, ...parameters });
			expectOutputMatches(schema, result.json);
		});
	}

	it('site.get: a site without audits yet (site_4) matches the schema too', async () => {
		const schema = outputSchema(NODE_DIR, 'site', 'get', version as number);
		const result = await run({ resource: 'site', operation: 'get', siteId: byId('site_4') });
		expectOutputMatches(schema, result.json);
	});
});
