import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { propertyRuns } from '../support/harness/propertyRuns.mts';
import { byId, runNode } from '../support/harness/runNode.mts';
import { startScriptedService, type ScriptedService } from '../support/harness/scriptedService.mts';

/**
 * Any answer a service, a proxy or a CDN could give to Get site: every item ends as its site or
 * as a failure whose message names the cause within the bounds, without markup or the token.
 */
const TOKEN = 'perf_SECRET_token_4711';
const MAX_MESSAGE = 600;
const MAX_DESCRIPTION = 1200;

interface Answer {
	status: number;
	contentType: string;
	body: string;
}

const text = fc.string({ maxLength: 60 });
const reason = fc.oneof(
	text,
	fc.constant(`invalid header Bearer ${TOKEN}`),
	// A service that echoes the bare token.
	fc.constant(`the token ${TOKEN} is not valid`),
);
const bodyArbitrary: fc.Arbitrary<string> = fc.oneof(
	fc.constant(''),
	text,
	reason.map(
		(said) => `<html><head><title>${said}</title></head><body><h1>${said}</h1></body></html>`,
	),
	reason.map((said) => JSON.stringify({ error: { code: 'some_code', message: said } })),
	reason.map((said) => JSON.stringify({ errors: [said] })),
	reason.map((said) => JSON.stringify({ message: said })),
	fc.jsonValue().map((value) => JSON.stringify(value)),
	fc.constantFrom('x', '<p>', '{"message":"').map((start) => start + 'y'.repeat(60_000)),
);
const answerArbitrary: fc.Arbitrary<Answer> = fc.record({
	status: fc.oneof(
		fc.constantFrom(200, 400, 401, 403, 404, 409, 422, 500, 502, 503),
		fc.integer({ min: 400, max: 599 }),
	),
	contentType: fc.constantFrom(
		'application/json',
		'text/html',
		'text/plain',
		'application/problem+json',
	),
	body: bodyArbitrary,
});

let service: ScriptedService;
let answers: Answer[] = [];

beforeAll(async () => {
	service = await startScriptedService((request) => {
		const index = Number(/\/sites\/s(\d+)$/.exec(request.url)?.[1]);
		const answer = answers[index] ?? { status: 500, contentType: 'text/plain', body: '' };
		// 429 waits for a reset; it has its own tests (rateLimits).
		const status = answer.status === 429 ? 503 : answer.status;
		return { status, headers: { 'content-type': answer.contentType }, body: answer.body };
	});
});
afterAll(() => service.close());

describe('every answer (property)', () => {
	it('ends each item as its site or a bounded failure naming the status, with no markup or token', async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.array(answerArbitrary, { minLength: 1, maxLength: 8 }),
				async (generated) => {
					answers = generated;
					const result = await runNode(
						'performanceService',
						{ resource: 'site', operation: 'get', siteId: byId('={{ $json.id }}') },
						{
							credentials: { baseUrl: `${service.origin}/v1`, apiToken: TOKEN },
							items: generated.map((_, index) => ({ id: `s${index}` })),
							continueOnFail: true,
						},
					);
					expect(result.error).toBeUndefined();
					expect(result.items.map((item) => item.pairedItem)).toEqual(
						generated.map((_, item) => ({ item })),
					);
					result.json.forEach((json, index) => {
						const { status } = generated[index];
						if (typeof json.error !== 'string') {
							expect(status).toBeLessThan(400);
							return;
						}
						const message = json.error;
						const description = String(json.message ?? '');
						expect(message.length).toBeLessThanOrEqual(MAX_MESSAGE);
						expect(description.length).toBeLessThanOrEqual(MAX_DESCRIPTION);
						expect(message).toMatch(/\[[A-Za-z0-9_.-]+(, HTTP \d{3})?\]/);
						if (status >= 400 && ![401, 403, 404, 409, 429].includes(status))
							expect(message).toContain(`HTTP ${status}`);
						expect(`${message} ${description}`).not.toContain(TOKEN);
						expect(message).not.toMatch(/<\/?[a-z][^>]*>/i);
					});
				},
			),
			propertyRuns(12),
		);
	});
});
