import type {
	IAllExecuteFunctions,
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
} from 'n8n-workflow';

/** The n8n contexts that send requests: nodes, list searches, polling triggers, webhook calls and their hooks. */
export type ServiceContext = IAllExecuteFunctions;

/** Which service a request goes to, and how messages name it and its credential. */
export interface ServiceProfile {
	/** Shown in messages, e.g. "Performance Service". */
	serviceName: string;
	credentialType: string;
	/** Display name of the credential, for fix hints. */
	credentialName: string;
	/** What the credential's secret is called in messages; "token" when not set. */
	secretName?: string;
	/** The credential field holding the token or key: with type and base URL it names the credential's pace. */
	secretField: string;
	/** The plan's requests per minute the credential keeps to while the service sends no rate-limit headers. */
	planPerMinute?: (credentials: ICredentialDataDecryptedObject) => number | undefined;
	/** The service's rate limits in words, for the message of a 429. */
	rateLimitsText?: string;
}

export interface ServiceRequest {
	method: IHttpRequestMethods;
	/** Path below the credential's base URL, IDs already encoded. Ignored when `url` is set. */
	path: string;
	/**
	 * A URL the service gave (a pagination link, a picker's page token): sent only when it lies
	 * below the credential's base URL (see `checkFollowedUrl`).
	 */
	url?: string;
	qs?: IDataObject;
	body?: IDataObject;
	itemIndex?: number;
	/** Scope the request needs, named in the message when the token lacks it. */
	scope?: string;
	/** The record the request addresses, e.g. `site "site_1"`: a 404 says this record was not found. */
	addressedRecord?: string;
	/** The rate limits this request counts against in words, when not the profile's. */
	rateLimitsText?: string;
	/**
	 * The answer's rate-limit headers describe a limit of this request's own (the per-site
	 * reoptimization hour), not the credential's: they do not set the credential's pace.
	 */
	ownRateLimit?: boolean;
}

export interface ServiceResponse {
	/** The URL the request went to (with the query string when it came from a followed link). */
	url: string;
	body: unknown;
	headers: IDataObject;
}

/** What a failure says: the message, the fix, and the code n8n shows as the HTTP code. */
export interface FailureDescription {
	message: string;
	description: string;
	httpCode: string;
}
