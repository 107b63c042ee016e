import fc from 'fast-check';
import { NodeOperationError, type INode } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { toPathSegment } from '../../../../nodes/shared/parameters/ids.ts';

const node: INode = {
	id: 'n1',
	name: 'Performance Service',
	type: 'n8n-nodes-site-performance-security.performanceService',
	typeVersion: 2,
	position: [0, 0],
	parameters: {},
};

function refusal(value: unknown): NodeOperationError {
	try {
		toPathSegment(node, value, 'site ID', 3);
	} catch (error) {
		return error as NodeOperationError;
	}
	throw new Error(`${JSON.stringify(value)} was accepted`);
}

describe('toPathSegment', () => {
	it('returns the ID encoded for one path segment', () => {
		expect(toPathSegment(node, 'site_1', 'site ID', 0)).toBe('site_1');
		expect(toPathSegment(node, '  site_1 ', 'site ID', 0)).toBe('site_1');
		expect(toPathSegment(node, 42, 'site ID', 0)).toBe('42');
		expect(toPathSegment(node, 'a b?c#d%e&f', 'site ID', 0)).toBe('a%20b%3Fc%23d%25e%26f');
		expect(toPathSegment(node, 'sité', 'site ID', 0)).toBe('sit%C3%A9');
		expect(toPathSegment(node, 'v1.2', 'site ID', 0)).toBe('v1.2');
	});

	it('refuses an empty ID, saying where to get one', () => {
		for (const value of ['', '   ', undefined, null]) {
			const error = refusal(value);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe('The site ID is empty');
			expect(error.description).toMatch(/Pick a site from the list/);
			expect(error.context.itemIndex).toBe(3);
		}
	});

	it('refuses a value that is neither text nor a number, naming its type', () => {
		const cases: Array<[unknown, string]> = [
			[{}, 'an object'],
			[['site_1'], 'a list'],
			[true, 'true/false (true)'],
			[Number.NaN, 'the number NaN'],
		];
		for (const [value, kind] of cases) {
			const error = refusal(value);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(`The site ID must be text, not ${kind}`);
			expect(error.description).toMatch(/Pick a site from the list/);
			expect(error.context.itemIndex).toBe(3);
		}
	});

	it('refuses IDs that would change the request path', () => {
		for (const value of ['a/b', '/site_1', 'site_1/', '..', '../site_1', 'site..1', '.', 'a\\b']) {
			const error = refusal(value);
			expect(error).toBeInstanceOf(NodeOperationError);
			expect(error.message).toBe(`The site ID "${value}" is not a valid ID`);
			expect(error.description).toContain('IDs cannot contain "/", "\\" or ".."');
		}
	});

	it('never lets a separator or traversal through, and round-trips what it accepts', () => {
		fc.assert(
			fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), (value) => {
				let segment: string;
				try {
					segment = toPathSegment(node, value, 'site ID', 0);
				} catch {
					return;
				}
				expect(segment).not.toMatch(/[/\\]/);
				expect(segment).not.toContain('..');
				expect(decodeURIComponent(segment)).toBe(value.trim());
			}),
		);
	});
});
