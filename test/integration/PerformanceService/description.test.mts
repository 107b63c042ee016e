import type { INodeProperties, INodeType } from 'n8n-workflow';
import { beforeAll, describe, expect, it } from 'vitest';

import { PACKAGE_NAME } from '../../support/n8n/paths.mts';
import { expectIconFiles, nodeType, operationsOf, readCodex } from '../nodeDescription.mts';
import { NODE_DIR } from './performanceNode.mts';

describe('node description', () => {
	let node: INodeType;
	const property = (name: string, operation?: string): INodeProperties | undefined =>
		node.description.properties.find(
			(candidate) =>
				candidate.name === name &&
				(operation === undefined || candidate.displayOptions?.show?.operation?.includes(operation)),
		);

	beforeAll(async () => {
		node = await nodeType('performanceService');
	});

	it('ships one version, 2', () => {
		expect(node.description.version).toBe(2);
		expect(node.description.defaultVersion).toBeUndefined();
	});

	it('offers the resources and operations of the public interface', () => {
		const offered = operationsOf(node).map(({ resource, operation }) => `${resource}.${operation}`);
		expect(offered).toEqual(
			expect.arrayContaining([
				'site.getAll',
				'site.get',
				'site.reoptimize',
				'audit.getAll',
				'system.getHealth',
			]),
		);
	});

	it('is usable as a tool, with a subtitle, light and dark icons and a codex file', () => {
		expect(node.description.usableAsTool).toBe(true);
		expect(node.description.subtitle).toBe(
			'={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		);
		expectIconFiles(NODE_DIR, node.description);

		const codex = readCodex<{
			node: string;
			categories: string[];
			resources: {
				primaryDocumentation: Array<{ url: string }>;
				credentialDocumentation: Array<{ url: string }>;
			};
		}>(NODE_DIR, 'PerformanceService.node.json');
		expect(codex.node).toBe(`${PACKAGE_NAME}.performanceService`);
		expect(codex.categories).toEqual(expect.arrayContaining(['Analytics', 'Development']));
		expect(codex.resources.primaryDocumentation[0].url).toMatch(/#performance-service$/);
		expect(codex.resources.credentialDocumentation[0].url).toMatch(
			/#performance-service-api-credential$/,
		);
	});

	it('describes every operation for tools, each with its own action', () => {
		const offered = operationsOf(node);
		expect(new Set(offered.map(({ action }) => action)).size).toBe(offered.length);
		for (const { action, description } of offered) {
			expect(action).toMatch(/^[A-Z]/);
			expect(description?.length).toBeGreaterThan(20);
		}
	});

	it('makes the site a resource locator with a searchable list and an ID mode', () => {
		const siteIds = node.description.properties.filter(({ name }) => name === 'siteId');
		expect(siteIds.length).toBeGreaterThan(0);
		for (const siteId of siteIds) {
			expect(siteId?.type).toBe('resourceLocator');
			expect(siteId?.modes?.map((mode) => mode.name)).toEqual(['list', 'id']);
			const searchMethod = siteId?.modes?.[0].typeOptions?.searchListMethod as string;
			expect(node.methods?.listSearch?.[searchMethod]).toBeTypeOf('function');
		}
	});

	it('has Return All and Limit on site Get Many and a 1-100 Limit on audit Get Many', () => {
		expect(property('returnAll', 'getAll')?.displayOptions?.show?.resource).toEqual(['site']);
		const auditLimit = node.description.properties.find(
			(candidate) =>
				candidate.name === 'limit' && candidate.displayOptions?.show?.resource?.includes('audit'),
		);
		expect(auditLimit).toMatchObject({ default: 50, typeOptions: { minValue: 1, maxValue: 100 } });
	});
});
