import path from 'node:path';

import { describe, it } from 'vitest';

import { fromList } from '../../support/harness/runNode.mts';
import { PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import { nodeType, operationsOf, sampleParametersOf } from '../nodeDescription.mts';
import { expectOutputMatches, outputSchema } from '../outputSchema.mts';
import { securitySandbox } from './securityNode.mts';

const NODE_DIR = path.join(PACKAGE_ROOT, 'nodes/SecurityService');

/** A value for each parameter the operations need, by parameter name, valid in the seeds. */
const SAMPLES = {
	returnAll: true,
	url: 'https://a.example',
	name: 'A',
	siteId: fromList('st_1'),
	threatId: fromList('thr_1'),
};

const { run } = securitySandbox();
const type = await nodeType('securityService');

describe('Security Service: output schemas', () => {
	for (const offered of operationsOf(type)) {
		const { resource, operation } = offered;
		it(`${resource}.${operation}: n8n finds the schema and the output matches it`, async () => {
			const schema = outputSchema(NODE_DIR, resource, operation);
			const parameters = sampleParametersOf(type, offered, SAMPLES);
			const { json: output } = await run({ resource, operation, ...parameters });
			expectOutputMatches(schema, output);
		});
	}
});
