import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { runListSearch } from '../support/harness/listSearch.mts';
import { runPoll, triggerNode } from '../support/harness/runPoll.mts';
import { chain, packageNode, runWorkflow, startNode } from '../support/harness/runWorkflow.mts';

/**
 * The origin rule on every path that follows a URL the service (or the editor) supplied: Get
 * Many with Return All on both nodes, the three resource-locator lists, and the polling
 * trigger. A "service" answers the first page of every list with a link chosen by the test;
 * a second server on another port stands for the foreign host and records what reaches it.
 */

interface Received {
	path: string;
	authorization?: string;
}

interface RecordingServer {
	server: Server;
	origin: string;
	received: Received[];
}

const TOKEN = 'pst_origin_rule_token';
const KEY = 'sec_origin_rule_key';

/** What the service puts in the first page of a list: a body link, a Link header, or nothing. */
let nextLink: { where: 'body' | 'header'; url: string } | undefined;

let service: RecordingServer;
let foreign: RecordingServer;

function record(target: RecordingServer, request: IncomingMessage): void {
	target.received.push({ path: request.url ?? '', authorization: request.headers.authorization });
}

async function listen(
	handler: (request: IncomingMessage) => { status: number; body: unknown; headers?: IDataObject },
) {
	const target: RecordingServer = { server: createServer(), origin: '', received: [] };
	target.server.on('request', (request, response) => {
		record(target, request);
		const reply = handler(request);
		response.writeHead(reply.status, {
			'content-type': 'application/json',
			...(reply.headers as object),
		});
		response.end(JSON.stringify(reply.body));
	});
	await new Promise<void>((resolve) => target.server.listen(0, '127.0.0.1', resolve));
	target.origin = `http://127.0.0.1:${(target.server.address() as AddressInfo).port}`;
	return target;
}

/** `GET /v1/{list}` answers one record; the first page carries `nextLink`, a later page nothing. */
function serviceReply(request: IncomingMessage) {
	const url = new URL(request.url ?? '/', 'http://service.invalid');
	const list = url.pathname.split('/')[2] ?? '';
	const firstPage = !url.searchParams.has('page');
	const records = [
		{ id: `${list}_${firstPage ? 1 : 2}`, name: `Record on ${firstPage ? 'page 1' : 'page 2'}` },
	];
	if (!firstPage || !nextLink) return { status: 200, body: { [list]: records } };
	if (nextLink.where === 'header') {
		return { status: 200, body: records, headers: { link: `<${nextLink.url}>; rel="next"` } };
	}
	return { status: 200, body: { [list]: records, next: nextLink.url } };
}

beforeAll(async () => {
	service = await listen(serviceReply);
	foreign = await listen(() => ({ status: 200, body: { sites: [], threats: [] } }));
});
afterAll(async () => {
	await new Promise((resolve) => service.server.close(resolve));
	await new Promise((resolve) => foreign.server.close(resolve));
});
beforeEach(() => {
	nextLink = undefined;
	service.received.length = 0;
	foreign.received.length = 0;
});

const baseUrl = () => `${service.origin}/v1`;
const credentials = () => ({
	performanceServiceApi: { baseUrl: baseUrl(), apiToken: TOKEN },
	securityServiceApi: { baseUrl: baseUrl(), apiKey: KEY },
});

/** Links a hostile or broken service might give, each outside the base URL `/v1` of the service. */
const foreignLinks = () => [
	{ name: 'another port', url: `${foreign.origin}/v1/items?page=2`, shown: foreign.origin },
	{
		name: 'protocol-relative',
		url: `//127.0.0.1:${new URL(foreign.origin).port}/v1/items?page=2`,
		shown: foreign.origin,
	},
	{
		name: 'user info',
		url: `http://127.0.0.1:${new URL(service.origin).port}@127.0.0.1:${new URL(foreign.origin).port}/v1/items?page=2`,
		shown: foreign.origin,
	},
	{
		name: 'a sibling path',
		url: `${service.origin}/v1evil/items?page=2`,
		shown: `${service.origin}/v1evil/items`,
	},
	{
		name: 'encoded dots',
		url: `${service.origin}/v1/%2e%2e/admin?page=2`,
		shown: `${service.origin}/admin`,
	},
];

function expectRefusal(
	error: unknown,
	shown: string,
	credentialName: string,
	secret: string,
): void {
	expect(error).toBeDefined();
	expect((error as Error).message).toBe(
		`Refused to send the ${secret} to ${shown}: it is outside the base URL of the "${credentialName}" credential [foreign_url]`,
	);
	expect((error as Error & { description?: string }).description).toContain(
		`only goes to addresses below ${baseUrl()}`,
	);
}

/** Nothing reached the foreign server, and the service saw only the first page. */
function expectNothingFollowed(firstPath: string): void {
	expect(foreign.received).toEqual([]);
	expect(service.received.map((request) => request.path)).toEqual([firstPath]);
}

async function runAction(
	type: 'performanceService' | 'securityService',
	parameters: INodeParameters,
) {
	const credentialType =
		type === 'performanceService' ? 'performanceServiceApi' : 'securityServiceApi';
	const node = packageNode(type, parameters, { name: 'Node', credentials: [credentialType] });
	const run = await runWorkflow(chain(startNode(), node), { credentials: credentials() });
	return { error: run.nodeError('Node'), output: () => run.output('Node') };
}

const PERFORMANCE = ['Performance Service API', 'token'] as const;
const SECURITY = ['Security Service API', 'API key'] as const;

describe('a link on the credential origin below the base path is followed', () => {
	it('Get Many with Return All reads page 2 from the service', async () => {
		nextLink = { where: 'body', url: `${baseUrl()}/threats?page=2` };
		const { error, output } = await runAction('securityService', {
			resource: 'threat',
			operation: 'getAll',
			returnAll: true,
		});

		expect(error).toBeUndefined();
		expect(output().map((item) => item.json.id)).toEqual(['threats_1', 'threats_2']);
		expect(service.received).toEqual([
			{ path: '/v1/threats', authorization: `Bearer ${KEY}` },
			{ path: '/v1/threats?page=2', authorization: `Bearer ${KEY}` },
		]);
	});
});

describe('Get Many with Return All refuses a foreign next link before sending anything there', () => {
	it.each(['body', 'header'] as const)('performance sites, link in the %s', async (where) => {
		for (const link of foreignLinks()) {
			nextLink = { where, url: link.url };
			service.received.length = 0;
			const { error } = await runAction('performanceService', {
				resource: 'site',
				operation: 'getAll',
				returnAll: true,
			});

			expectRefusal(error, link.shown, ...PERFORMANCE);
			expectNothingFollowed('/v1/sites');
		}
	});

	it.each(['body', 'header'] as const)('security threats, link in the %s', async (where) => {
		for (const link of foreignLinks()) {
			nextLink = { where, url: link.url };
			service.received.length = 0;
			const { error } = await runAction('securityService', {
				resource: 'threat',
				operation: 'getAll',
				returnAll: true,
			});

			expectRefusal(error, link.shown, ...SECURITY);
			expectNothingFollowed('/v1/threats');
		}
	});
});

function search(nodeType: string, method: string, paginationToken?: string) {
	return runListSearch({ nodeType, method, credentials: credentials(), paginationToken });
}

const pickers = [
	['performanceService', 'searchSites', '/v1/sites', PERFORMANCE],
	['securityService', 'searchSites', '/v1/sites', SECURITY],
	['securityService', 'searchUnresolvedThreats', '/v1/threats', SECURITY],
] as const;

describe('resource-locator lists refuse a foreign page link and a foreign page token', () => {
	it.each(pickers)(
		'%s %s: a next link to another host',
		async (nodeType, method, path, [credentialName, secret]) => {
			nextLink = { where: 'body', url: `${foreign.origin}/v1/items?page=2` };
			const error = await search(nodeType, method).catch((caught: unknown) => caught);

			expectRefusal(error, foreign.origin, credentialName, secret);
			expectNothingFollowed(path);
		},
	);

	it.each(pickers)(
		'%s %s: a page token naming another host',
		async (nodeType, method, _path, [credentialName, secret]) => {
			const token = `${foreign.origin}/v1/items?page=2`;
			const error = await search(nodeType, method, token).catch((caught: unknown) => caught);

			expectRefusal(error, foreign.origin, credentialName, secret);
			expect(foreign.received).toEqual([]);
			expect(service.received).toEqual([]);
		},
	);

	it.each(pickers)(
		'%s %s: a same-origin page token continues the list',
		async (nodeType, method, path) => {
			const token = `${baseUrl()}${path.slice(3)}?page=2`;
			const { results } = await search(nodeType, method, token);

			expect(results.map((result) => result.value)).toEqual([`${path.slice(4)}_2`]);
			expect(service.received.map((request) => request.path)).toEqual([`${path}?page=2`]);
		},
	);
});

describe('the polling trigger refuses a foreign next link', () => {
	it('an active poll fails and the foreign host receives nothing', async () => {
		nextLink = { where: 'header', url: `${foreign.origin}/v1/threats?page=2` };
		const run = await runPoll({
			node: triggerNode(
				'securityServiceTrigger',
				{ event: 'newThreat' },
				'securityServiceApi',
				'Trigger',
			),
			credentials: credentials(),
		});

		expect(run.items).toEqual([]);
		expectRefusal(run.error, foreign.origin, ...SECURITY);
		expectNothingFollowed('/v1/threats');
	});
});
