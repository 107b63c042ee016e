import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
} from 'n8n-workflow';

import { BASE_URL_EXPRESSION } from './baseUrl';

/**
 * A credential's test: `GET <base URL>/sites`, with a message for each status that fails it and,
 * when given, the message for a 2xx whose body holds no `sites`.
 */
export function listSitesTest(
	messages: Record<number, string>,
	noSitesMessage?: string,
): ICredentialTestRequest {
	const rules: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> =
		Object.entries(messages).map(([status, message]) => ({
			type: 'responseCode',
			properties: { value: Number(status), message },
		}));
	// n8n fails the test when the body's `key` holds `value`: here, when `sites` is missing.
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
