import { describe, expect, it } from 'vitest';

import { byId, reasonOf } from '../support/harness/runNode.mts';
import { sandboxCredentials, withSandbox } from '../support/harness/sandbox.mts';
import { runWithOnError } from '../support/harness/onErrorRun.mts';

const sandbox = withSandbox();
const getSite = { resource: 'site', operation: 'get', siteId: byId('={{ $json.site }}') };
const items = [{ site: 'site_1' }, { site: 'site_999' }, { site: 'site_2' }];

describe('Settings → On Error', () => {
	it('"Continue (using error output)": failed items leave by the error output, paired to their input', async () => {
		const run = await runWithOnError('performanceService', getSite, {
			items,
			onError: 'continueErrorOutput',
			credentials: sandboxCredentials(sandbox),
		});

		expect(run.success.map((item) => [item.json.id, item.pairedItem])).toEqual([
			['site_1', { item: 0 }],
			['site_2', { item: 2 }],
		]);
		expect(run.errors).toHaveLength(1);
		const [failed] = run.errors;
		expect(failed.pairedItem).toEqual({ item: 1 });
		expect(reasonOf(failed.json.error as string)).toBe('not_found');
		expect(failed.json.error).toBe('The site "site_999" was not found [not_found]');
		expect(failed.json.message).toMatch(/Check the ID/);
		// n8n adds the input item's fields to an item of the error output.
		expect(failed.json.site).toBe('site_999');
	});

	it('"Continue (using regular output)": failed items stay in the success output, in input order', async () => {
		const run = await runWithOnError('performanceService', getSite, {
			items,
			onError: 'continueRegularOutput',
			credentials: sandboxCredentials(sandbox),
		});

		expect(run.errors).toEqual([]);
		expect(run.success.map((item) => [item.json.id ?? item.json.error, item.pairedItem])).toEqual([
			['site_1', { item: 0 }],
			['The site "site_999" was not found [not_found]', { item: 1 }],
			['site_2', { item: 2 }],
		]);
		expect(Object.keys(run.success[1].json).sort()).toEqual(['error', 'message']);
	});

	it('an input refused before any request goes to the error output too', async () => {
		const run = await runWithOnError(
			'securityService',
			{ resource: 'site', operation: 'create', url: '={{ $json.url }}' },
			{
				items: [{ url: ' ' }],
				onError: 'continueErrorOutput',
				credentials: sandboxCredentials(sandbox),
			},
		);
		expect(run.success).toEqual([]);
		expect(run.errors.map((item) => [item.json.error, item.pairedItem])).toEqual([
			['The URL is empty', { item: 0 }],
		]);
	});
});
