import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type { OperationHandler } from '../../../../nodes/shared/actions/router.ts';
import {
	resourceOperations,
	type OperationModule,
} from '../../../../nodes/shared/parameters/resourceAndOperation.ts';
import { auditResource } from '../../../../nodes/PerformanceService/actions/audit/index.ts';
import { siteResource } from '../../../../nodes/PerformanceService/actions/site/index.ts';
import { systemResource } from '../../../../nodes/PerformanceService/actions/system/index.ts';
import { reportResource } from '../../../../nodes/SecurityService/actions/report/index.ts';
import { scanResource } from '../../../../nodes/SecurityService/actions/scan/index.ts';
import { siteResource as securitySiteResource } from '../../../../nodes/SecurityService/actions/site/index.ts';
import { threatResource } from '../../../../nodes/SecurityService/actions/threat/index.ts';
import { updateResource } from '../../../../nodes/SecurityService/actions/update/index.ts';

const handler: OperationHandler = async () => ({}) as IDataObject;
const getHandler: OperationHandler = async () => ({ got: true }) as IDataObject;
const field = { displayName: 'Thing ID', name: 'thingId', type: 'string', default: '' } as const;

const get: OperationModule = {
	option: { name: 'Get', action: 'Get a thing', description: 'Read one thing' },
	description: [field],
	execute: getHandler,
};
const remove: OperationModule = {
	option: { name: 'Delete', action: 'Delete a thing', description: 'Remove one thing' },
	description: [],
	execute: handler,
};

describe('a resource is built from the modules of its operations', () => {
	it("builds the Operation parameter (options by name, values the modules' names), the fields and the handler map", () => {
		const { properties, handlers } = resourceOperations('thing', { get, delete: remove }, 'delete');
		expect(properties).toEqual([
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				displayOptions: { show: { resource: ['thing'] } },
				options: [
					{
						name: 'Delete',
						value: 'delete',
						action: 'Delete a thing',
						description: 'Remove one thing',
					},
					{ name: 'Get', value: 'get', action: 'Get a thing', description: 'Read one thing' },
				],
				default: 'delete',
			},
			field,
		]);
		expect(handlers).toEqual({ get: getHandler, delete: handler });
	});

	it('compiles only with a default among the operations', () => {
		// @ts-expect-error -- the default must be one of the operations
		const unknown = resourceOperations('thing', { get, delete: remove }, 'update');
		expect(unknown.properties[0].default).toBe('update');
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
