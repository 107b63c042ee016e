import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { packageNode, runWorkflow } from '../../support/harness/runWorkflow.mts';
import { ids, NODE_NAME, threats, triggerSandbox } from './securityTrigger.mts';

const { sandbox, credentials, poll } = triggerSandbox();

describe('Security Service Trigger: manual test run', () => {
	it('emits the newest record through the editor’s manual execution, leaving the memory alone', async () => {
		sandbox.addThreat({ title: 'Newest', detectedAt: new Date(Date.now() + 60_000).toISOString() });
		const node = packageNode('securityServiceTrigger', threats, {
			name: NODE_NAME,
			credentials: ['securityServiceApi'],
		});
		const result = await runWorkflow(
			{ nodes: [node], connections: {} },
			{ credentials: credentials(), mode: 'manual' },
		);

		expect(result.run.status).toBe('success');
		expect(result.output(NODE_NAME).map((item) => item.json)).toEqual([
			expect.objectContaining({ id: 'thr_28', title: 'Newest' }),
		]);
		// The run may look at the memory (none here) but writes nothing: n8n's change flag stays off.
		const nodeData = result.workflow.staticData[`node:${NODE_NAME}`] as IDataObject;
		expect(Object.keys(nodeData)).toEqual([]);
		expect(nodeData.__dataChanged).toBe(false);
	});

	it('picks the newest by ID when records carry no usable date', async () => {
		sandbox.addScan({ status: 'queued', startedAt: null });
		const scans = await poll({ event: 'newScan' }, undefined, { mode: 'manual' });
		expect(ids(scans)).toEqual(['scn_5']);

		const updates = await poll({ event: 'newUpdate' }, undefined, { mode: 'manual' });
		expect(ids(updates)).toEqual(['upd_5']);
	});

	it('applies the filters and emits nothing when nothing matches', async () => {
		const high = await poll({ event: 'newThreat', filters: { severity: 'high' } }, undefined, {
			mode: 'manual',
		});
		expect(high.items).toHaveLength(1);
		expect(high.items[0].json.severity).toBe('high');

		const none = await poll({ event: 'newThreat', filters: { severity: 'unknown' } }, undefined, {
			mode: 'manual',
		});
		expect(none.result).toBeNull();
	});
});
