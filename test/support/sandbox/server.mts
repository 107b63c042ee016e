import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { SandboxContext } from './context.mts';
import { handleControl } from './control.mts';
import { faultOutcome } from './faults.mts';
import { MOUNTS } from './mounts.mts';
import { handlePerformance } from './performanceRoutes.mts';
import { performanceError, securityError } from './reply.mts';
import type { ErrorReply, IncomingCall, Reply } from './reply.mts';
import { rootIndex } from './rootIndex.mts';
import { handleSecurity } from './securityRoutes.mts';
import type { RecordedRequest, ServiceName } from './types.mts';

function locate(pathname: string): { area: ServiceName | 'control'; path: string } | undefined {
	for (const [area, base] of Object.entries(MOUNTS) as Array<[ServiceName | 'control', string]>) {
		if (pathname === base || pathname.startsWith(`${base}/`)) {
			return { area, path: pathname.slice(base.length) || '/' };
		}
	}
	return undefined;
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

async function readBody(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

function write(res: ServerResponse, reply: Reply): void {
	if (res.destroyed || res.headersSent) return;
	res.writeHead(reply.status, {
		...reply.headers,
		'content-length': String(Buffer.byteLength(reply.body)),
	});
	res.end(reply.body);
}

async function serveService(
	ctx: SandboxContext,
	service: ServiceName,
	call: IncomingCall,
	req: IncomingMessage,
): Promise<Reply | undefined> {
	const record: RecordedRequest = {
		service,
		method: call.method,
		path: call.path,
		query: Object.fromEntries(call.query),
		headers: call.headers,
		body: call.body,
		at: Date.now(),
	};
	ctx.requests.push(record);
	const reply = await answerService(ctx, service, call, req);
	record.status = reply?.status ?? 0;
	return reply;
}

async function answerService(
	ctx: SandboxContext,
	service: ServiceName,
	call: IncomingCall,
	req: IncomingMessage,
): Promise<Reply | undefined> {
	if (ctx.options.latencyMs > 0) await ctx.delays.sleep(ctx.options.latencyMs);

	const fault = ctx.faults.take(service, call.method, call.path);
	if (fault) {
		const errorReply: ErrorReply =
			service === 'performance'
				? performanceError
				: (status, code, message) =>
						securityError(ctx.options.securityErrorShape, status, code, message);
		const outcome = faultOutcome(fault, errorReply);
		if (outcome.kind === 'drop') {
			req.socket.destroy();
			return undefined;
		}
		if (outcome.kind === 'reply') return outcome.reply;
		await ctx.delays.sleep(outcome.ms);
	}

	if (service === 'performance') return handlePerformance(ctx, call);
	const publicBase = `http://${call.headers.host ?? new URL(ctx.origin).host}${MOUNTS.security}`;
	return handleSecurity(ctx, { ...call, publicBase });
}

async function handle(
	ctx: SandboxContext,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
	const method = (req.method ?? 'GET').toUpperCase();
	const call = {
		method,
		query: url.searchParams,
		headers: flattenHeaders(req.headers),
		body: await readBody(req),
	};
	const mount = locate(url.pathname);
	let reply: Reply | undefined;
	if (!mount && method === 'GET' && url.pathname === '/') {
		reply = rootIndex(ctx);
	} else if (!mount) {
		reply = performanceError(
			404,
			'not_found',
			`Nothing is served at ${url.pathname}; use ${Object.values(MOUNTS).join(', ')}`,
		);
	} else if (mount.area === 'control') {
		reply = handleControl(ctx, { ...call, path: mount.path });
	} else {
		reply = await serveService(ctx, mount.area, { ...call, path: mount.path }, req);
	}
	if (reply) write(res, reply);
	if (mount?.area !== 'control')
		ctx.log(`${method} ${url.pathname}${url.search} -> ${reply ? reply.status : 'dropped'}`);
}

export function createSandboxServer(ctx: SandboxContext): Server {
	return createServer((req, res) => {
		handle(ctx, req, res).catch((error: unknown) => {
			ctx.log(`internal error: ${error instanceof Error ? error.stack : String(error)}`);
			write(res, performanceError(500, 'internal_error', 'Sandbox failure'));
		});
	});
}

/**
 * One line for a port another process holds (`listen EADDRINUSE`), naming the setting that picks
 * another port; undefined for any other error.
 */
export function addressInUseHint(error: unknown, setting: string): string | undefined {
	const { code, port } = error as { code?: unknown; port?: unknown };
	if (code !== 'EADDRINUSE') return undefined;
	return `Port ${String(port)} is already in use (is \`npm start\` or another sandbox running?): stop that, or choose another port with ${setting}`;
}
