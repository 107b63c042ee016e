/**
 * What the set-up says about locks and npm: whose lock a waiter waits for, and which of npm's lines
 * (and which likely cause) a stalled or failed install shows.
 */
import { describe, expect, it } from 'vitest';

import { describeOwner } from '../../support/n8n/folderLock.mts';
import type { LockOwner } from '../../support/n8n/folderLock.mts';
import { npmTrouble, npmTroubleCause } from '../../support/n8n/install.mts';

const owner: LockOwner = {
	pid: 4242,
	hostname: 'here',
	command: 'node test/support/n8n/install.mts',
	startedAt: '2026-11-24T10:25:01.500Z',
};

describe('describeOwner', () => {
	it('names the pid, the command and the start time; the host only when it is another', () => {
		expect(describeOwner(owner, 'here')).toBe(
			'pid 4242 (node test/support/n8n/install.mts), since 10:25:01 UTC',
		);
		expect(describeOwner(owner, 'other')).toContain(') on here, since');
		expect(describeOwner(undefined)).toBe('an unknown process');
	});
});

describe("npm's lines in a stall or failure report", () => {
	const output = [
		'npm warn Unknown env config "nodedir". This will stop working in the next major version of npm.',
		'npm http fetch GET 200 https://registry.npmjs.org/n8n 120ms (cache miss)',
		'npm http fetch GET https://registry.npmjs.org/sqlite3 attempt 1 failed with SELF_SIGNED_CERT_IN_CHAIN',
		'npm error code SELF_SIGNED_CERT_IN_CHAIN',
		'',
	].join('\n');

	it('leaves out successful fetches and config warnings', () => {
		expect(npmTrouble(output)).toEqual([
			'npm http fetch GET https://registry.npmjs.org/sqlite3 attempt 1 failed with SELF_SIGNED_CERT_IN_CHAIN',
			'npm error code SELF_SIGNED_CERT_IN_CHAIN',
		]);
	});

	it('names certificate settings not reaching npm for TLS errors', () => {
		expect(npmTroubleCause(npmTrouble(output))).toMatch(
			/^npm does not trust the registry's certificate: .*npm config get globalconfig/,
		);
	});

	it('names proxy settings for connection errors', () => {
		expect(
			npmTroubleCause([
				'npm http fetch GET https://registry.npmjs.org/n8n attempt 2 failed with ETIMEDOUT',
			]),
		).toMatch(/^npm cannot reach the registry: .*proxy/);
	});

	it('names no cause it cannot see', () => {
		expect(npmTroubleCause(['npm error code ERESOLVE'])).toBeUndefined();
	});
});
