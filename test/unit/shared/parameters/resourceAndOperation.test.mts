import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { OperationHandler } from '../../../../nodes/shared/actions/router.ts';
import {
	operationProperty,
	resourceOperations,
} from '../../../../nodes/shared/parameters/resourceAndOperation.ts';
import { auditResource } from '../../../../nodes/PerformanceService/actions/audit/index.ts';
import { siteResource } from '../../../../nodes/PerformanceService/actions/site/index.ts';
import { systemResource } from '../../../../nodes/PerformanceService/actions/system/index.ts';
import { reportResource } from '../../../../nodes/SecurityService/actions/report/index.ts';
import { scanResource } from '../../../../nodes/SecurityService/actions/scan/index.ts';
import { siteResource as securitySiteResource } from '../../../../nodes/SecurityService/actions/site/index.ts';
import { threatResource } from '../../../../nodes/SecurityService/actions/threat/index.ts';
import { updateResource } from '../../../../nodes/SecurityService/actions/update/index.ts';

const options = [
	{ name: 'Get', value: 'get', action: 'Get a thing', description: 'Read one thing' },
	{ name: 'Delete', value: 'delete', action: 'Delete a thing', description: 'Remove one thing' },
] as const;
const handler: OperationHandler = async () => ({}) as IDataObject;

const operationModule = { description: [], execute: handler };

describe('handler maps are checked against the operation options', () => {
	it('compiles only with a module for every operation and none for an unknown one', () => {
		const complete = resourceOperations('thing', options, 'get', {
			get: operationModule,
			delete: operationModule,
		});
		// @ts-expect-error -- the module of "delete" is missing
		const missing = resourceOperations('thing', options, 'get', { get: operationModule });
		const unknown = resourceOperations('thing', options, 'get', {
			get: operationModule,
			delete: operationModule,
			// @ts-expect-error -- "update" is not an operation of the list
			update: operationModule,
		});
		expect(Object.keys(complete.handlers)).toEqual(['get', 'delete']);
		expect([missing, unknown]).toHaveLength(2);
	});

	it('builds the Operation parameter from the options, with a default among them', () => {
		expect(operationProperty('thing', options, 'delete')).toEqual({
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: ['thing'] } },
			options: [...options],
			default: 'delete',
		});
		// @ts-expect-error -- the default must be one of the operations
		expect(operationProperty('thing', options, 'update').default).toBe('update');
	});

	it.each([
		['performance audit', auditResource],
		['performance site', siteResource],
		['performance system', systemResource],
		['security report', reportResource],
		['security scan', scanResource],
		['security site', securitySiteResource],
		['security threat', threatResource],
		['security update', updateResource],
	])(
		'%s: one handler per operation value, each a function',
		(_resource, { properties, handlers }) => {
			const operation = properties.find((property) => property.name === 'operation');
			const values = (operation?.options as Array<{ value: string }>).map((option) => option.value);
			expect(Object.keys(handlers).sort()).toEqual([...values].sort());
			for (const value of values)
				expect(typeof (handlers as Record<string, unknown>)[value]).toBe('function');
		},
	);
});
