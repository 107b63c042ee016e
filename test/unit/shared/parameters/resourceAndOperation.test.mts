import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import {
	operationProperty,
	type HandlersFor,
	type OperationHandler,
} from '../../../../nodes/shared/parameters/resourceAndOperation.ts';
import {
	auditHandlers,
	auditOperations,
} from '../../../../nodes/PerformanceService/actions/audit/index.ts';
import {
	siteHandlers,
	siteOperations,
} from '../../../../nodes/PerformanceService/actions/site/index.ts';
import {
	systemHandlers,
	systemOperations,
} from '../../../../nodes/PerformanceService/actions/system/index.ts';
import {
	reportHandlers,
	reportOperations,
} from '../../../../nodes/SecurityService/actions/report/index.ts';
import {
	scanHandlers,
	scanOperations,
} from '../../../../nodes/SecurityService/actions/scan/index.ts';
import {
	siteHandlers as securitySiteHandlers,
	siteOperations as securitySiteOperations,
} from '../../../../nodes/SecurityService/actions/site/index.ts';
import {
	threatHandlers,
	threatOperations,
} from '../../../../nodes/SecurityService/actions/threat/index.ts';
import {
	updateHandlers,
	updateOperations,
} from '../../../../nodes/SecurityService/actions/update/index.ts';

const options = [
	{ name: 'Get', value: 'get', action: 'Get a thing', description: 'Read one thing' },
	{ name: 'Delete', value: 'delete', action: 'Delete a thing', description: 'Remove one thing' },
] as const;
const handler: OperationHandler = async () => ({}) as IDataObject;

describe('handler maps are checked against the operation options', () => {
	it('compiles only with a handler for every operation and none for an unknown one', () => {
		const complete = { get: handler, delete: handler } satisfies HandlersFor<typeof options>;
		// @ts-expect-error -- the handler of "delete" is missing
		const missing = { get: handler } satisfies HandlersFor<typeof options>;
		// @ts-expect-error -- "update" is not an operation of the list
		const unknown = { get: handler, delete: handler, update: handler } satisfies HandlersFor<
			typeof options
		>;
		expect(Object.keys(complete)).toEqual(['get', 'delete']);
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
		['performance audit', auditOperations, auditHandlers],
		['performance site', siteOperations, siteHandlers],
		['performance system', systemOperations, systemHandlers],
		['security report', reportOperations, reportHandlers],
		['security scan', scanOperations, scanHandlers],
		['security site', securitySiteOperations, securitySiteHandlers],
		['security threat', threatOperations, threatHandlers],
		['security update', updateOperations, updateHandlers],
	])('%s: one handler per operation value, each a function', (_resource, properties, handlers) => {
		const operation = properties.find((property) => property.name === 'operation');
		const values = (operation?.options as Array<{ value: string }>).map((option) => option.value);
		expect(Object.keys(handlers).sort()).toEqual([...values].sort());
		for (const value of values)
			expect(typeof (handlers as Record<string, unknown>)[value]).toBe('function');
	});
});
