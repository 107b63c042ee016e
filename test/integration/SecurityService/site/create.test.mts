import { describe, expect, it } from 'vitest';

import { securitySandbox } from '../securityNode.mts';

const { sandbox, run, securityRequests, serviceList } = securitySandbox();

describe('Security Service: Site → Create', () => {
	it('POSTs url, name and the additional fields as JSON', async () => {
		const result = await run({
			resource: 'site',
			operation: 'create',
			url: 'https://news.example.org',
			name: 'News',
			additionalFields: '{"tags": ["press"], "plan": "agency", "url": "https://ignored.example"}',
		});

		expect(result.status).toBe('success');
		const [request] = securityRequests();
		expect(request).toMatchObject({ method: 'POST', path: '/sites' });
		expect(request.headers['content-type']).toBe('application/json');
		expect(request.headers.authorization).toBe(`Bearer ${sandbox.securityKey}`);
		expect(JSON.parse(request.body)).toEqual({
			tags: ['press'],
			plan: 'agency',
			url: 'https://news.example.org',
			name: 'News',
		});
		expect(result.json).toEqual([
			{
				id: 'st_4',
				url: 'https://news.example.org',
				name: 'News',
				tags: ['press'],
				plan: 'agency',
				createdAt: (await serviceList('sites')).find((site) => site.id === 'st_4')?.createdAt,
			},
		]);
	});

	it('leaves an empty name out of the body', async () => {
		const result = await run({
			resource: 'site',
			operation: 'create',
			url: 'https://shop.example.org',
		});

		expect(JSON.parse(securityRequests()[0].body)).toEqual({ url: 'https://shop.example.org' });
		expect(result.json[0]).toMatchObject({
			url: 'https://shop.example.org',
			name: 'shop.example.org',
		});
	});

	it('refuses additional fields that are not a JSON object, without a request', async () => {
		const result = await run({
			resource: 'site',
			operation: 'create',
			url: 'https://a.example',
			additionalFields: '[1]',
		});

		expect(result.error?.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('Additional Fields (JSON)');
		expect(securityRequests()).toHaveLength(0);
	});
});
