import { DEMO_TOKENS, scopesOf, SECURITY_KEY, SIGNING_SECRET } from './auth.mts';
import type { SandboxContext } from './context.mts';
import { controlRouteList } from './control.mts';
import { MOUNTS } from './mounts.mts';
import { jsonReply } from './reply.mts';
import type { Reply } from './reply.mts';

/** What `GET /` answers: where the services are, the demo credentials and the control routes. */
export function rootIndex(ctx: SandboxContext): Reply {
	const tokens = Object.entries(DEMO_TOKENS).map(([name, token]) => ({
		name,
		token,
		scopes: scopesOf(token),
	}));
	return jsonReply(200, {
		sandbox: 'Local stand-ins for the Performance and Security services (test/support/sandbox)',
		performance: {
			baseUrl: ctx.origin + MOUNTS.performance,
			auth: 'Authorization: Bearer <token>',
			tokens,
		},
		security: {
			baseUrl: ctx.origin + MOUNTS.security,
			auth: 'Authorization: Bearer <key>',
			key: SECURITY_KEY,
		},
		webhooks: {
			signingSecret: SIGNING_SECRET,
			register: `POST ${MOUNTS.control}/webhooks {"url": "<your n8n webhook URL>"}`,
		},
		control: controlRouteList(),
	});
}
