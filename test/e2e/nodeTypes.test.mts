import { readFileSync } from 'node:fs';

import { beforeAll, describe, expect, it } from 'vitest';

import type { N8nClient, NodeTypeDescription } from '../support/n8n/client.mts';
import { PACKAGE_NAME } from '../support/n8n/paths.mts';
import { e2e, ownerClient } from './context.mts';

/** Fixed by the public interface (shared spec): node and credential type names. */
const ACTION_NODES = ['performanceService', 'securityService'];
const TRIGGER_NODES = [
	'performanceServiceTrigger',
	'performanceServicePollTrigger',
	'securityServiceTrigger',
	'securityServiceWebhookTrigger',
];
const CREDENTIAL_TYPES = ['performanceServiceApi', 'securityServiceApi'];

let client: N8nClient;
let nodeTypes: NodeTypeDescription[];

function loaded(name: string): NodeTypeDescription {
	const type = nodeTypes.find((candidate) => candidate.name === `${PACKAGE_NAME}.${name}`);
	if (!type) throw new Error(`n8n did not load ${PACKAGE_NAME}.${name}`);
	return type;
}

function iconPaths(type: NodeTypeDescription): string[] {
	const { iconUrl } = type;
	if (typeof iconUrl === 'string') return [iconUrl];
	if (iconUrl !== null && typeof iconUrl === 'object') return Object.values(iconUrl).map(String);
	return [];
}

beforeAll(async () => {
	client = ownerClient();
	nodeTypes = await client.nodeTypes();
});

describe('the package installed as a community package', () => {
	it.each([...ACTION_NODES, ...TRIGGER_NODES])(
		'loads %s under the community-package prefix',
		(name) => {
			const type = loaded(name);
			expect(type.credentials?.map((credential) => credential.name)).toEqual([
				name.startsWith('performance') ? 'performanceServiceApi' : 'securityServiceApi',
			]);
			expect(type.properties.length).toBeGreaterThan(0);
		},
	);

	it.each([...ACTION_NODES, ...TRIGGER_NODES])(
		'serves the light and dark icons of %s',
		async (name) => {
			const paths = iconPaths(loaded(name));
			expect(paths).toHaveLength(2);
			for (const iconPath of paths) {
				const response = await fetch(`${e2e().n8nOrigin}/${iconPath}`);
				expect(response.status, iconPath).toBe(200);
				expect(await response.text()).toContain('<svg');
			}
		},
	);

	it.each(ACTION_NODES)('offers %s as an AI tool as well', (name) => {
		const tool = loaded(`${name}Tool`);
		expect(tool.outputs).toEqual(['ai_tool']);
	});

	it.each(TRIGGER_NODES)('offers no AI tool variant of the trigger %s', (name) => {
		expect(nodeTypes.some((type) => type.name === `${PACKAGE_NAME}.${name}Tool`)).toBe(false);
	});

	it('loads both credential types, without a prefix', async () => {
		const credentialTypes = await client.credentialTypes();
		for (const name of CREDENTIAL_TYPES) {
			expect(credentialTypes.map((type) => type.name)).toContain(name);
		}
	});

	it('logs no error while loading the package', () => {
		const log = readFileSync(e2e().n8nLogFile, 'utf8');
		const problems = log
			.split('\n')
			.filter((line) => line.includes(PACKAGE_NAME) && /error|fail/i.test(line));
		expect(problems).toEqual([]);
	});
});
