import path from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PACKAGE_NAME, PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import { expectIconFiles, nodeType, optionValues, readCodex } from '../nodeDescription.mts';

const NODE_DIR = path.join(PACKAGE_ROOT, 'nodes/SecurityService');

function property(type: INodeType, name: string, resource?: string): INodeProperties | undefined {
	return type.description.properties.find(
		(candidate) =>
			candidate.name === name &&
			(!resource || candidate.displayOptions?.show?.resource?.includes(resource)),
	);
}

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
		expectIconFiles(NODE_DIR, description);
		const codex = readCodex(NODE_DIR, 'SecurityService.node.json');
		expect(codex.node).toBe(`${PACKAGE_NAME}.securityService`);
	});
});
