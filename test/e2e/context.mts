import { inject } from 'vitest';

import { N8nClient } from '../support/n8n/client.mts';
import type { CredentialIds, ExampleKey } from '../support/n8n/examples.mts';

/** What the global setup hands every e2e test file (plain data: it crosses into the test workers). */
export interface E2eContext {
	n8nOrigin: string;
	n8nLogFile: string;
	owner: { email: string; password: string };
	/** The owner's session cookie and API key, made once by the setup. */
	cookie: string;
	apiKey: string;
	sandbox: {
		origin: string;
		controlUrl: string;
		performanceUrl: string;
		securityUrl: string;
		tokens: { readOnly: string; readWrite: string; sitesWrite: string; noScopes: string };
		securityKey: string;
		signingSecret: string;
	};
	credentialIds: CredentialIds;
	workflowIds: Record<ExampleKey, string>;
	/** When the trigger examples were published. */
	publishedAt: number;
	/** A HEALTHY site of its own for the site health example, added right after publishing. */
	watchedSite: { id: string; name: string; hostname: string; addedAt: number };
}

declare module 'vitest' {
	export interface ProvidedContext {
		e2e: E2eContext;
	}
}

export function e2e(): E2eContext {
	return inject('e2e');
}

/** A client on the owner's session from the setup (n8n answers 429 to more than a few sign-ins a minute). */
export function ownerClient(): N8nClient {
	const { n8nOrigin, cookie, apiKey } = e2e();
	return N8nClient.fromSession(n8nOrigin, cookie, apiKey);
}
