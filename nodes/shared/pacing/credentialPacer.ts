import { readBaseUrl, readCredentials } from '../http/baseUrl';
import type { ServiceContext, ServiceProfile } from '../http/serviceTypes';
import { pacerFor } from './pacers';
import type { RequestPacer } from './requestPacer';

/** The pace of the context's credential (read once per context), shared across the process. */
export async function readPacer(
	ctx: ServiceContext,
	profile: ServiceProfile,
): Promise<RequestPacer> {
	const credentials = await readCredentials(ctx, profile);
	const secret = credentials[profile.secretField];
	return pacerFor({
		credentialType: profile.credentialType,
		baseUrl: await readBaseUrl(ctx, profile),
		secret: typeof secret === 'string' ? secret : '',
		plan: profile.planRate?.(credentials),
	});
}
