import path from 'node:path';

import type { INodeProperties, INodeType } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PACKAGE_NAME, PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import {
	expectIconFiles,
	nodeType,
	operationsOf,
	optionValues,
	readCodex,
} from '../nodeDescription.mts';

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
		const offered = operationsOf(type).map(({ resource, operation }) => `${resource}.${operation}`);
		expect(offered).toEqual(
			expect.arrayContaining([
				'site.getAll',
				'site.create',
				'scan.getAll',
				'scan.trigger',
				'threat.getAll',
				'threat.resolve',
				'update.getAll',
				'report.getAll',
			]),
		);
		expect(property(type, 'url')).toMatchObject({ required: true, type: 'string' });
		expect(property(type, 'name')).toMatchObject({ type: 'string' });
		for (const name of ['siteId', 'threatId']) {
			expect(property(type, name)?.type).toBe('resourceLocator');
			expect(property(type, name)?.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
		}
		const getMany = operationsOf(type).filter(({ operation }) => operation === 'getAll');
		expect(getMany.length).toBeGreaterThan(0);
		for (const { resource } of getMany) {
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
