import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
} from 'n8n-workflow';

import { BASE_URL_EXPRESSION } from './baseUrl';

/** The first characters a text answer can start with (printable ASCII, whitespace, a BOM). */
const FIRST_CHARACTERS = [
	...Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index)),
	'\t',
	'\n',
	'\r',
	'\ufeff',
];

/**
 * A credential's test: `GET <base URL>/sites`, with a message for each status that fails it, the
 * message for a 2xx that is not JSON (a web page, a login page after a redirect, empty) and, when
 * given, the message for a 2xx whose body holds no `sites`.
 */
export function listSitesTest(
	messages: Record<number, string>,
	notJsonMessage: string,
	noSitesMessage?: string,
): ICredentialTestRequest {
	const rules: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> =
		Object.entries(messages).map(([status, message]) => ({
			type: 'responseCode',
			properties: { value: Number(status), message },
		}));
	// n8n fails the test when `get(body, key) === value`. A body that is not JSON reaches it as
	// text, whose key `0` is its first character and `length` its length: one rule per character
	// a text can start with, and one for an empty answer.
	for (const character of FIRST_CHARACTERS) {
		rules.push({
			type: 'responseSuccessBody',
			properties: { key: '0', value: character, message: notJsonMessage },
		});
	}
	rules.push({
		type: 'responseSuccessBody',
		properties: { key: 'length', value: 0, message: notJsonMessage },
	});
	// Here, when `sites` is missing.
	if (noSitesMessage) {
		const properties = { key: 'sites', value: undefined, message: noSitesMessage };
		rules.push({ type: 'responseSuccessBody', properties });
	}
	return {
		request: { baseURL: BASE_URL_EXPRESSION, url: '/sites', method: 'GET' },
		// n8n's credential tester checks each rule by its type, so status and body rules can be
		// mixed; the declared type (one array of either kind) cannot say so.
		rules: rules as IAuthenticateRuleResponseCode[],
	};
}
