import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PACKAGE_NAME, PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import { expectIconFiles, nodeType, optionValues, readCodex } from '../nodeDescription.mts';

const TRIGGER_DIR = path.join(PACKAGE_ROOT, 'nodes/SecurityService');

describe('Security Service Trigger: description', () => {
	it('is a polling trigger with the events of the public interface, not a tool', async () => {
		const { description } = await nodeType('securityServiceTrigger');
		expect(description.polling).toBe(true);
		expect(description.inputs).toEqual([]);
		expect(description.usableAsTool).toBeUndefined();
		expect(description.credentials).toEqual([{ name: 'securityServiceApi', required: true }]);
		const event = description.properties.find((candidate) => candidate.name === 'event');
		expect(optionValues(event)).toEqual(
			expect.arrayContaining(['newThreat', 'newScan', 'newUpdate', 'newReport']),
		);
		expectIconFiles(TRIGGER_DIR, description);
		const codex = readCodex(TRIGGER_DIR, 'SecurityServiceTrigger.node.json');
		expect(codex.node).toBe(`${PACKAGE_NAME}.securityServiceTrigger`);
	});
});
