import { describe, expect, it } from 'vitest';

import { readErrorBody } from '../../../../nodes/shared/http/errorBody.ts';

describe('readErrorBody', () => {
	it('reads `{error:{code,message}}`', () => {
		expect(
			readErrorBody('{"error":{"code":"not_found","message":"Threat thr_9 was not found"}}'),
		).toMatchObject({
			code: 'not_found',
			message: 'Threat thr_9 was not found',
		});
	});

	it('reads `{code,message}`', () => {
		expect(
			readErrorBody('{"code":"conflict","message":"Threat thr_4 is already resolved"}'),
		).toMatchObject({
			code: 'conflict',
			message: 'Threat thr_4 is already resolved',
		});
	});

	it('reads `{error:"..."}` as a message without a code', () => {
		const read = readErrorBody('{"error":"Invalid API key"}');
		expect(read.message).toBe('Invalid API key');
		expect(read.code).toBeUndefined();
	});

	it('reads `{message}`', () => {
		expect(readErrorBody('{"message":"url is required"}')).toMatchObject({
			code: undefined,
			message: 'url is required',
		});
	});

	it('reads plain text, trimmed and shortened', () => {
		expect(readErrorBody('  Rate limit of 100 requests per minute reached\n')).toEqual({
			message: 'Rate limit of 100 requests per minute reached',
			fields: {},
		});
		expect(readErrorBody('x'.repeat(1000)).message).toHaveLength(300);
	});

	it('reads `{errors:[{code,message}]}` and OAuth-style `error_description`', () => {
		expect(
			readErrorBody('{"errors":[{"code":"invalid_request","message":"bad page"}]}'),
		).toMatchObject({
			code: 'invalid_request',
			message: 'bad page',
		});
		expect(readErrorBody('{"error":{"type":"auth","error_description":"expired"}}')).toMatchObject({
			code: 'auth',
			message: 'expired',
		});
	});

	it('accepts an already parsed body', () => {
		expect(readErrorBody({ error: { code: 'rate_limited', message: 'slow down' } })).toMatchObject({
			code: 'rate_limited',
			message: 'slow down',
		});
	});

	it('keeps the other fields of the error object', () => {
		expect(
			readErrorBody('{"error":{"code":"forbidden","message":"no","required_scope":"sites:write"}}')
				.fields,
		).toMatchObject({
			required_scope: 'sites:write',
		});
	});

	it('has neither code nor message for an empty body or JSON without them', () => {
		expect(readErrorBody('')).toEqual({ message: undefined, fields: {} });
		expect(readErrorBody('{"status":500}')).toMatchObject({ code: undefined, message: undefined });
		expect(readErrorBody('[]')).toEqual({ message: undefined, fields: {} });
	});
});
