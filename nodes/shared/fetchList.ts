import { NodeApiError, type IDataObject, type JsonObject } from 'n8n-workflow';

import { unwrapList } from './listResponse';
import {
	joinUrl,
	requestService,
	type ServiceContext,
	type ServiceProfile,
	type ServiceRequest,
} from './serviceRequest';

export interface ListOptions {
	/** Plural resource name, the key a wrapped list is most likely under (`threats`). */
	plural: string;
	returnAll: boolean;
	limit: number;
}

const MAX_PAGES = 1000;

/**
 * Reads a list in any shape and, for Return All (or a limit beyond the first page), follows the
 * pagination hints the service gave until there are none, a page is empty, or a link repeats.
 */
export async function fetchList(
	ctx: ServiceContext,
	profile: ServiceProfile,
	request: ServiceRequest,
	options: ListOptions,
): Promise<IDataObject[]> {
	const credentials = await ctx.getCredentials(profile.credentialType);
	const records: IDataObject[] = [];
	const seen = new Set<string>();
	let current: ServiceRequest = request;
	seen.add(`${request.url ?? joinUrl(credentials.baseUrl, request.path)}?${JSON.stringify(request.qs ?? {})}`);

	for (let page = 0; page < MAX_PAGES; page++) {
		const response = await requestService(ctx, profile, current);
		const list = unwrapList(response.body, options.plural, response.headers);
		if (!list) {
			throw new NodeApiError(ctx.getNode(), { body: JSON.stringify(response.body).slice(0, 500) } as JsonObject, {
				message: `The ${profile.serviceName} answered without a list of ${options.plural}`,
				description:
					'Expected an array, or an object holding one. Check the base URL in the credential and, if you passed query parameters, that the endpoint accepts them.',
				itemIndex: request.itemIndex,
			});
		}
		records.push(...list.records);
		const enough = !options.returnAll && records.length >= options.limit;
		if (enough || !list.next || list.records.length === 0) break;

		const currentUrl = current.url ?? joinUrl(credentials.baseUrl, current.path);
		const nextUrl = list.next.url ? new URL(list.next.url, currentUrl).toString() : undefined;
		const key = `${nextUrl ?? currentUrl}?${JSON.stringify(nextUrl ? {} : { ...current.qs, ...list.next.qs })}`;
		if (seen.has(key)) break;
		seen.add(key);
		current = nextUrl
			? { ...request, url: nextUrl, qs: undefined }
			: { ...current, qs: { ...current.qs, ...list.next.qs } };
	}
	return options.returnAll ? records : records.slice(0, options.limit);
}
