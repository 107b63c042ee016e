import fc from 'fast-check';
import type { INodeParameters } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { propertyRuns } from '../support/harness/propertyRuns.mts';
import { byId } from '../support/harness/runNode.mts';
import { sandboxCredentials, withSandbox } from '../support/harness/sandbox.mts';
import { runWithOnError, type OnError } from '../support/harness/onErrorRun.mts';

/**
 * Every parameter of every operation given any JSON value by an expression (`{{ $json.v }}`):
 * each item ends in the output n8n documents for the On Error setting, paired to its input, as
 * a result or as the node's own message; never a bare JavaScript error.
 */
const sandbox = withSandbox();
const V = '={{ $json.v }}';

type Case = ['performanceService' | 'securityService', INodeParameters];
const CASES: Case[] = [
	['performanceService', { resource: 'site', operation: 'get', siteId: byId(V) }],
	[
		'performanceService',
		{ resource: 'site', operation: 'get', siteId: byId('site_1'), simplify: V },
	],
	['performanceService', { resource: 'site', operation: 'getAll', limit: V }],
	['performanceService', { resource: 'site', operation: 'getAll', returnAll: V }],
	['performanceService', { resource: 'audit', operation: 'getAll', limit: V }],
	['performanceService', { resource: 'site', operation: 'reoptimize', siteId: byId(V) }],
	['securityService', { resource: 'site', operation: 'create', url: V }],
	['securityService', { resource: 'site', operation: 'create', url: 'https://a.example', name: V }],
	[
		'securityService',
		{ resource: 'site', operation: 'create', url: 'https://b.example', additionalFields: V },
	],
	['securityService', { resource: 'scan', operation: 'trigger', siteId: byId(V) }],
	['securityService', { resource: 'threat', operation: 'resolve', threatId: byId(V) }],
	['securityService', { resource: 'threat', operation: 'getAll', limit: V }],
	['securityService', { resource: 'report', operation: 'getAll', returnAll: V }],
	[
		'securityService',
		{
			resource: 'update',
			operation: 'getAll',
			queryParameters: { parameters: [{ name: 'q', value: V }] },
		},
	],
];

const value = fc.oneof(
	fc.jsonValue({ maxDepth: 2 }),
	fc.constantFrom(
		'',
		' ',
		'  site_1 ',
		'10',
		' 7 ',
		'true',
		'st_1',
		'thr_1',
		'https://c.example',
		'{"a":1}',
	),
);
const BARE_JS_ERROR =
	/is not a function|Cannot read properties|is not iterable|\[object Object\]|undefined/;

describe('every parameter given any JSON value from an expression (property)', () => {
	it("keeps each item in its documented output with the node's own message", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.nat(CASES.length - 1),
				fc.array(value, { minLength: 1, maxLength: 6 }),
				fc.constantFrom<OnError>('continueRegularOutput', 'continueErrorOutput'),
				async (caseIndex, values, onError) => {
					sandbox.reset();
					const [type, parameters] = CASES[caseIndex];
					const run = await runWithOnError(type, parameters, {
						items: values.map((v) => ({ v })),
						onError,
						credentials: sandboxCredentials(sandbox),
					});
					expect(run.error).toBeUndefined();
					const failed = (json: Record<string, unknown>) =>
						typeof json.error === 'string' &&
						Object.keys(json).every((key) => ['error', 'message', 'v'].includes(key));
					const all = [...run.success, ...run.errors];
					// Every input item is accounted for, in order within each output.
					const paired = (items: typeof all) =>
						items.map((item) => (item.pairedItem as { item: number }).item);
					expect([...new Set(paired(all))].sort((a, b) => a - b)).toEqual(
						values.map((_, index) => index),
					);
					for (const items of [run.success, run.errors]) {
						expect(paired(items)).toEqual([...paired(items)].sort((a, b) => a - b));
					}
					if (onError === 'continueErrorOutput') {
						expect(run.success.some((item) => failed(item.json))).toBe(false);
						expect(run.errors.every((item) => failed(item.json))).toBe(true);
					} else {
						expect(run.errors).toEqual([]);
					}
					for (const item of all.filter((candidate) => failed(candidate.json))) {
						expect(item.json.error).not.toMatch(BARE_JS_ERROR);
						expect(String(item.json.error).length).toBeLessThanOrEqual(600);
					}
				},
			),
			propertyRuns(20),
		);
	});
});
