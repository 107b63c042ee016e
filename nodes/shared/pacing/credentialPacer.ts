import { readBaseUrl, readCredentials } from '../baseUrl';
import type { ServiceContext, ServiceProfile } from '../serviceTypes';
import { pacerFor } from './pacers';
import type { RequestPacer } from './requestPacer';

const pacersOfContext = new WeakMap<ServiceContext, Map<string, RequestPacer>>();

/** The pace of the context's credential, looked up once per n8n context from the credential read once. */
export async function readPacer(ctx: ServiceContext, profile: ServiceProfile): Promise<RequestPacer> {
	let byCredential = pacersOfContext.get(ctx);
	if (!byCredential) {
		byCredential = new Map();
		pacersOfContext.set(ctx, byCredential);
	}
	let pacer = byCredential.get(profile.credentialType);
	if (!pacer) {
		const credentials = await readCredentials(ctx, profile);
		const secret = credentials[profile.secretField];
		pacer = pacerFor({
			credentialType: profile.credentialType,
			baseUrl: await readBaseUrl(ctx, profile),
			secret: typeof secret === 'string' ? secret : '',
			plan: profile.planRate?.(credentials),
		});
		byCredential.set(profile.credentialType, pacer);
	}
	return pacer;
}
