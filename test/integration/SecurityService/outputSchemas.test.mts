import path from 'node:path';

import type { INodeParameters } from 'n8n-workflow';
import { describe, it } from 'vitest';

import { fromList } from '../../support/harness/runNode.mts';
import { PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import { expectOutputMatches, outputSchema } from '../outputSchema.mts';
import { securitySandbox } from './securityNode.mts';

const NODE_DIR = path.join(PACKAGE_ROOT, 'nodes/SecurityService');

const { run } = securitySandbox();

describe('Security Service: output schemas', () => {
	const cases: Array<{ resource: string; operation: string; parameters?: INodeParameters }> = [
		{ resource: 'site', operation: 'getAll', parameters: { returnAll: true } },
		{ resource: 'site', operation: 'create', parameters: { url: 'https://a.example', name: 'A' } },
		{ resource: 'scan', operation: 'getAll', parameters: { returnAll: true } },
		{ resource: 'scan', operation: 'trigger', parameters: { siteId: fromList('st_1') } },
		{ resource: 'threat', operation: 'getAll', parameters: { returnAll: true } },
		{ resource: 'threat', operation: 'resolve', parameters: { threatId: fromList('thr_1') } },
		{ resource: 'update', operation: 'getAll', parameters: { returnAll: true } },
		{ resource: 'report', operation: 'getAll', parameters: { returnAll: true } },
	];

	for (const { resource, operation, parameters } of cases) {
		it(`${resource}.${operation}: n8n finds the schema and the output matches it`, async () => {
			const schema = outputSchema(NODE_DIR, resource, operation);
			const { json: output } = await run({ resource, operation, ...parameters });
			expectOutputMatches(schema, output);
		});
	}
});
