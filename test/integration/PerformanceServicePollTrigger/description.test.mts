import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_NAME, PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import { expectIconFiles, nodeType, optionValues, readCodex } from '../nodeDescription.mts';

const NODE_DIR = path.join(PACKAGE_ROOT, 'nodes/PerformanceService');

describe('Performance Service Poll Trigger: description', () => {
	it('is a polling trigger with the three events, told apart from the webhook trigger', async () => {
		const { description, methods } = await nodeType('performanceServicePollTrigger');
		const webhook = (await nodeType('performanceServiceTrigger')).description;
		expect(description.polling).toBe(true);
		expect(description.inputs).toEqual([]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toEqual([{ name: 'performanceServiceApi', required: true }]);
		expect(description.displayName).not.toBe(webhook.displayName);
		expect(description.description).toContain('no public URL needed');
		const event = description.properties.find((candidate) => candidate.name === 'event');
		expect(optionValues(event)).toEqual(['newSite', 'newAudit', 'siteStatusChanged']);
		const site = description.properties.find((candidate) => candidate.name === 'siteId');
		expect(site).toMatchObject({
			type: 'resourceLocator',
			required: false,
			displayOptions: { show: { event: ['newAudit'] } },
		});
		expect(Object.keys(methods?.listSearch ?? {})).toEqual(['searchSites']);
		expect(description.icon).toEqual(webhook.icon);
		expectIconFiles(NODE_DIR, description);
		const codex = readCodex(NODE_DIR, 'PerformanceServicePollTrigger.node.json');
		expect(codex.node).toBe(`${PACKAGE_NAME}.performanceServicePollTrigger`);
	});
});
