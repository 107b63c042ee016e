import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { loadOutputSchema } from 'n8n-core';
import type { INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { validateJson, type JsonSchema } from '../../support/harness/jsonSchema.ts';
import { loadPackageTypes } from '../../support/harness/packageTypes.ts';
import { fromList, runNode } from '../../support/harness/runNode.ts';
import { withSandbox } from '../../support/harness/sandbox.ts';
import { PACKAGE_NAME, PACKAGE_ROOT } from '../../support/n8n/paths.ts';

const NODE_DIR = path.join(PACKAGE_ROOT, 'nodes/SecurityService');
const TRIGGER_DIR = path.join(PACKAGE_ROOT, 'nodes/SecurityService');

const sandbox = withSandbox();

async function nodeType(name: string): Promise<INodeType> {
	const type = (await loadPackageTypes()).nodes.get(`${PACKAGE_NAME}.${name}`);
	if (!type) throw new Error(`${name} is not registered in package.json`);
	return type;
}

function property(type: INodeType, name: string, resource?: string): INodeProperties | undefined {
	return type.description.properties.find(
		(candidate) =>
			candidate.name === name &&
			(!resource || candidate.displayOptions?.show?.resource?.includes(resource)),
	);
}

function optionValues(prop: INodeProperties | undefined): unknown[] {
	return (prop?.options ?? []).map((option) => (option as { value: unknown }).value);
}

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
			const schema = loadOutputSchema({ nodeDir: NODE_DIR, version: 1, resource, operation }) as
				| JsonSchema
				| undefined;
			expect(schema).toBeDefined();

			const { json: output } = await runNode(
				'securityService',
				{ resource, operation, ...parameters },
				{ sandbox },
			);
			expect(output.length).toBeGreaterThan(0);
			for (const json of output) {
				expect(validateJson(schema as JsonSchema, json)).toEqual([]);
				expect(Object.keys(json).filter((key) => !(key in (schema?.properties ?? {})))).toEqual([]);
			}
		});
	}
});

describe('Security Service: description', () => {
	it('keeps the public names of the interface', async () => {
		const type = await nodeType('securityService');
		expect(type.description.credentials).toEqual([{ name: 'securityServiceApi', required: true }]);
		expect(optionValues(property(type, 'resource')).sort()).toEqual([
			'report',
			'scan',
			'site',
			'threat',
			'update',
		]);
		expect(optionValues(property(type, 'operation', 'site')).sort()).toEqual(['create', 'getAll']);
		expect(optionValues(property(type, 'operation', 'scan')).sort()).toEqual(['getAll', 'trigger']);
		expect(optionValues(property(type, 'operation', 'threat')).sort()).toEqual([
			'getAll',
			'resolve',
		]);
		expect(optionValues(property(type, 'operation', 'update'))).toEqual(['getAll']);
		expect(optionValues(property(type, 'operation', 'report'))).toEqual(['getAll']);
		expect(property(type, 'url')).toMatchObject({ required: true, type: 'string' });
		expect(property(type, 'name')).toMatchObject({ type: 'string' });
		for (const name of ['siteId', 'threatId']) {
			expect(property(type, name)?.type).toBe('resourceLocator');
			expect(property(type, name)?.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
		}
		for (const resource of ['site', 'scan', 'threat', 'update', 'report']) {
			const shown = type.description.properties.filter(
				(candidate) =>
					candidate.displayOptions?.show?.resource?.includes(resource) &&
					candidate.displayOptions?.show?.operation?.includes('getAll'),
			);
			expect(shown.map((candidate) => candidate.name)).toEqual([
				'returnAll',
				'limit',
				'queryParameters',
			]);
		}
		expect(Object.keys(type.methods?.listSearch ?? {}).sort()).toEqual([
			'searchSites',
			'searchUnresolvedThreats',
		]);
	});

	it('is usable as a tool, with subtitle, icons and codex', async () => {
		const { description } = await nodeType('securityService');
		expect(description.usableAsTool).toBe(true);
		expect(description.subtitle).toContain('$parameter["operation"]');
		const icon = description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark])
			expect(existsSync(path.join(NODE_DIR, file.replace(/^file:/, '')))).toBe(true);
		const codex = JSON.parse(
			readFileSync(path.join(NODE_DIR, 'SecurityService.node.json'), 'utf8'),
		) as { node: string };
		expect(codex.node).toBe(`${PACKAGE_NAME}.securityService`);
	});
});

describe('Security Service Trigger: description', () => {
	it('is a polling trigger with the four events, not a tool', async () => {
		const { description } = await nodeType('securityServiceTrigger');
		expect(description.polling).toBe(true);
		expect(description.inputs).toEqual([]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toEqual([{ name: 'securityServiceApi', required: true }]);
		const event = description.properties.find((candidate) => candidate.name === 'event');
		expect(optionValues(event)).toEqual(['newThreat', 'newScan', 'newUpdate', 'newReport']);
		const icon = description.icon as { light: string; dark: string };
		for (const file of [icon.light, icon.dark])
			expect(existsSync(path.join(TRIGGER_DIR, file.replace(/^file:/, '')))).toBe(true);
		const codex = JSON.parse(
			readFileSync(path.join(TRIGGER_DIR, 'SecurityServiceTrigger.node.json'), 'utf8'),
		) as {
			node: string;
		};
		expect(codex.node).toBe(`${PACKAGE_NAME}.securityServiceTrigger`);
	});
});
