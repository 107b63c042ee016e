import { expect } from 'vitest';

import type { CredentialTestResult } from '../support/harness/credentialTest.mts';

/** What n8n's credential test answered for a rejected secret, a wrong base URL and an unreachable host. */
export interface CredentialFailures {
	rejected: CredentialTestResult;
	wrongBaseUrl: CredentialTestResult;
	unreachable: CredentialTestResult;
}

/** Asserts the three failures carry the given messages and can be told apart. */
export function expectFailuresToldApart(
	failures: CredentialFailures,
	messages: { rejected: string; wrongBaseUrl: string },
): void {
	expect(failures.rejected).toEqual({ status: 'Error', message: messages.rejected });
	expect(failures.wrongBaseUrl).toEqual({ status: 'Error', message: messages.wrongBaseUrl });
	// n8n's tester reports a connection failure by its error code.
	expect(failures.unreachable).toEqual({ status: 'Error', message: 'ECONNREFUSED' });
	const distinct = new Set(Object.values(failures).map((failure) => failure.message));
	expect(distinct.size).toBe(3);
}
