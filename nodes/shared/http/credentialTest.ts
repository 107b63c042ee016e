import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	ICredentialTestRequest,
} from 'n8n-workflow';

import { BASE_URL_EXPRESSION } from './baseUrl';

/**
 * A credential's test: `GET <base URL>/sites`, with a message for each status that fails it and
 * an optional rule on the body of a 2xx.
 */
export function listSitesTest(
	messages: Record<number, string>,
	bodyRule?: IAuthenticateRuleResponseSuccessBody,
): ICredentialTestRequest {
	const rules: Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody> =
		Object.entries(messages).map(([status, message]) => ({
			type: 'responseCode',
			properties: { value: Number(status), message },
		}));
	if (bodyRule) rules.push(bodyRule);
	return {
		request: { baseURL: BASE_URL_EXPRESSION, url: '/sites', method: 'GET' },
		// n8n's credential tester checks each rule by its type, so status and body rules can be
		// mixed; the declared type (one array of either kind) cannot say so.
		rules: rules as IAuthenticateRuleResponseCode[],
	};
}
