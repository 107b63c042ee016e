/**
 * What a credential read costs in real n8n, where `getCredentials` loads the credential from the
 * database and decrypts it: the cached 2.41.1 install, the packed package installed as a
 * community package, the sandbox as the service (no latency).
 *
 * Three webhook workflows turn one request into 100 items (Split Out) and send one GET each:
 * n8n's HTTP Request node with the package's credential type (3 credential reads per item),
 * the same node with the Authorization header typed in as a parameter (no credential read), and
 * the Performance Service node (one read per execution, handed to n8n's authentication helper).
 * Runs are taken in turns; the difference between the first two, per read, is what a read (with
 * applying the credential) costs in real n8n.
 *
 * `npm run build && node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON benchmarks/n8nCredentialReads.mts`
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startSandbox } from '../test/support/sandbox/index.mts';
import {
	N8nClient,
	type WorkflowDefinition,
	type WorkflowNode,
} from '../test/support/n8n/client.mts';
import { installCommunityPackage } from '../test/support/n8n/communityPackage.mts';
import { ensureN8nInstalled } from '../test/support/n8n/install.mts';
import { startN8n } from '../test/support/n8n/instance.mts';
import { PACKAGE_NAME } from '../test/support/n8n/paths.mts';
import { freePort } from '../test/support/n8n/processes.mts';
import { waitForWebhook } from '../test/support/n8n/webhooks.mts';

const ITEMS = 100;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const OWNER = {
	email: 'bench@example.com',
	firstName: 'Bench',
	lastName: 'Owner',
	password: 'Bench-Owner-1',
};

type Kind = 'httpCredential' | 'httpHeader' | 'package';
const LABELS: Record<Kind, string> = {
	httpCredential: 'HTTP Request node, predefined credential type (3 reads per item)',
	httpHeader: 'HTTP Request node, header as a parameter (no credential read)',
	package: 'Performance Service node, System → Get Health (1 read per execution)',
};
const READS: Record<Kind, number> = { httpCredential: 3 * ITEMS, httpHeader: 0, package: 1 };

function actionNode(
	kind: Kind,
	systemUrl: string,
	token: string,
	credentialId: string,
): WorkflowNode {
	const credentials = { performanceServiceApi: { id: credentialId, name: 'Bench account' } };
	const position: [number, number] = [440, 0];
	if (kind === 'package') {
		return {
			name: 'Action',
			type: `${PACKAGE_NAME}.performanceService`,
			typeVersion: 2,
			position,
			parameters: { resource: 'system', operation: 'getHealth' },
			credentials,
		};
	}
	const auth =
		kind === 'httpCredential'
			? { authentication: 'predefinedCredentialType', nodeCredentialType: 'performanceServiceApi' }
			: {
					sendHeaders: true,
					headerParameters: { parameters: [{ name: 'Authorization', value: `Bearer ${token}` }] },
				};
	return {
		name: 'Action',
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		position,
		parameters: { method: 'GET', url: systemUrl, ...auth, options: {} },
		...(kind === 'httpCredential' ? { credentials } : {}),
	};
}

function workflowFor(kind: Kind, webhookPath: string, action: WorkflowNode): WorkflowDefinition {
	return {
		name: `Bench credential reads: ${kind}`,
		nodes: [
			{
				name: 'Webhook',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: [0, 0],
				webhookId: webhookPath,
				parameters: {
					httpMethod: 'POST',
					path: webhookPath,
					responseMode: 'lastNode',
					options: {},
				},
			},
			{
				name: 'Items',
				type: 'n8n-nodes-base.splitOut',
				typeVersion: 1,
				position: [220, 0],
				parameters: { fieldToSplitOut: 'body.items', options: {} },
			},
			action,
		],
		connections: {
			Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
			Items: { main: [[{ node: 'Action', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

async function timedCall(url: string): Promise<number> {
	const body = JSON.stringify({ items: Array.from({ length: ITEMS }, (_, n) => ({ n })) });
	const started = performance.now();
	const answer = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
	});
	await answer.text();
	if (!answer.ok) throw new Error(`${url} answered ${answer.status}`);
	return performance.now() - started;
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
	const installDir = await ensureN8nInstalled();
	const sandbox = await startSandbox({ quiet: true, limits: { requestsPerMinute: 1_000_000 } });
	const userFolder = mkdtempSync(path.join(os.tmpdir(), 'n8n-bench-credentials-'));
	await installCommunityPackage(userFolder);
	const n8n = await startN8n({
		installDir,
		userFolder,
		port: await freePort(),
		encryptionKey: randomBytes(24).toString('hex'),
	});
	try {
		const client = await N8nClient.setupOwner(n8n.origin, OWNER);
		const token = sandbox.tokens.readWrite;
		const credentialId = await client.createCredential('Bench account', 'performanceServiceApi', {
			baseUrl: sandbox.performanceUrl,
			apiToken: token,
		});
		const urls = {} as Record<Kind, string>;
		for (const kind of Object.keys(LABELS) as Kind[]) {
			const webhookPath = randomUUID();
			const workflow = await client.createWorkflow(
				workflowFor(
					kind,
					webhookPath,
					actionNode(kind, `${sandbox.performanceUrl}/system`, token, credentialId),
				),
			);
			await client.publishWorkflow(workflow.id);
			urls[kind] = `${n8n.origin}/webhook/${webhookPath}`;
			await waitForWebhook(urls[kind]);
			await timedCall(urls[kind]);
		}
		const times: Record<Kind, number[]> = { httpCredential: [], httpHeader: [], package: [] };
		for (let round = 0; round < ROUNDS; round++) {
			for (const kind of Object.keys(LABELS) as Kind[])
				times[kind].push(await timedCall(urls[kind]));
		}
		const medians = Object.fromEntries(
			(Object.keys(LABELS) as Kind[]).map((kind) => [kind, median(times[kind])]),
		) as Record<Kind, number>;
		const perReadMs = (medians.httpCredential - medians.httpHeader) / READS.httpCredential;
		const lines = [
			`\n### Credential reads in real n8n ${'2.41.1'}: ${ITEMS} items per execution, median of ${ROUNDS} executions each, taken in turns\n`,
			'| workflow | credential reads | execution (webhook answered) |',
			'|---|---|---|',
			...(Object.keys(LABELS) as Kind[]).map(
				(kind) => `| ${LABELS[kind]} | ${READS[kind]} | ${medians[kind].toFixed(1)} ms |`,
			),
			'',
			`One credential read (with applying it to the request) ≈ ${(perReadMs * 1000).toFixed(0)} µs in real n8n;` +
				` the ${2 * ITEMS - 1} reads the package saves per ${ITEMS} requests (it read twice per request before) ≈ ${((2 * ITEMS - 1) * perReadMs).toFixed(0)} ms.`,
			'',
		];
		process.stdout.write(lines.join('\n'));
	} finally {
		await n8n.stop();
		await sandbox.close();
		rmSync(userFolder, { recursive: true, force: true });
	}
}

await main();
