import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { callsTo } from '../../support/harness/sandbox.mts';
import { pollTriggerSandbox } from './pollTrigger.mts';

const { sandbox, poll } = pollTriggerSandbox();

describe('Performance Service Poll Trigger: reading its parameters', () => {
	it('refuses an event it does not know, naming the ones it has, before any request', async () => {
		const run = await poll({ event: 'newVisitor' });

		expect(run.error?.message).toBe('The event "newVisitor" is not supported');
		expect((run.error as Error & { description?: string }).description).toBe(
			'Choose one of: New Site, New Audit, Site Status Changed.',
		);
		expect(run.saved).toBe(false);
		expect(callsTo(sandbox, 'performance')).toEqual([]);
	});

	it('a manual run of the status event emits the newest site as one item paired with item 0', async () => {
		const manual = await poll({ event: 'siteStatusChanged' }, undefined, { mode: 'manual' });

		expect(manual.error).toBeUndefined();
		expect(manual.result).toEqual([
			[
				{
					json: expect.objectContaining({ id: 'site_4', previousStatus: null }) as IDataObject,
					pairedItem: { item: 0 },
				},
			],
		]);
		expect(callsTo(sandbox, 'performance').map(({ path }) => path)).toEqual(['/sites']);
	});
});
