import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { DatabaseSync } from 'node:sqlite';

import { Cipher, Credentials, EncryptionKeyProxy, type InstanceSettings } from 'n8n-core';
import { afterAll, beforeAll, bench, describe } from 'vitest';

import { startSandbox, type Sandbox } from '../test/support/sandbox/index.mts';
import { TestCredentialsHelper } from '../test/support/harness/credentialsHelper.mts';
import { byId } from '../test/support/harness/runNode.mts';
import { packageBulkNode, printTable, runBulk, useHttpRequestNode } from './bulkRuns.mts';
import { httpRequestNode } from './n8nHttpRequestNode.mts';

/**
 * Per-request overhead: how often an execution of 100 items reads the credential (n8n's
 * `getCredentials`, which in real n8n loads the row from the database and decrypts it), and
 * what one such read costs with n8n-core's own decryption and a SQLite primary-key lookup.
 */
const ITEMS = 100;

let sandbox: Sandbox;
const reads = new Map<string, number>();
let readCount = 0;
const originalGetDecrypted = TestCredentialsHelper.prototype.getDecrypted;

async function countReads(name: string, run: () => Promise<unknown>): Promise<void> {
	readCount = 0;
	await run();
	reads.set(name, readCount);
}

/** One credentials row read and decrypted the way n8n 2.41 does it (legacy instance key). */
function credentialStore() {
	const instanceKey = randomBytes(24).toString('base64');
	const proxy = new EncryptionKeyProxy();
	const cipher = new Cipher({ encryptionKey: instanceKey } as InstanceSettings, proxy);
	const legacyKey = {
		value: cipher.encryptDEKWithInstanceKey(instanceKey),
		algorithm: 'aes-256-cbc' as const,
	};
	proxy.setProvider({
		getActiveKey: async () => ({ id: 'legacy', ...legacyKey }),
		getKeyById: async () => null,
		getLegacyKey: async () => legacyKey,
	} as unknown as Parameters<EncryptionKeyProxy['setProvider']>[0]);
	// Credentials takes its Cipher from n8n's DI container, the one n8n-core itself uses.
	const di = createRequire(createRequire(import.meta.url).resolve('n8n-core'))('@n8n/di') as {
		Container: { set: (type: unknown, value: unknown) => void };
	};
	di.Container.set(Cipher, cipher);

	const db = new DatabaseSync(':memory:');
	db.exec(
		'CREATE TABLE credentials_entity (id TEXT PRIMARY KEY, name TEXT, type TEXT, data TEXT, createdAt TEXT, updatedAt TEXT)',
	);
	const insert = db.prepare('INSERT INTO credentials_entity VALUES (?, ?, ?, ?, ?, ?)');
	for (let index = 0; index < 1000; index++) {
		const data = {
			baseUrl: 'https://perf.example.com/v1',
			apiToken: randomBytes(24).toString('hex'),
			webhookSigningSecret: randomBytes(24).toString('hex'),
		};
		const now = new Date().toISOString();
		insert.run(
			`cred${index}`,
			`Credential ${index}`,
			'performanceServiceApi',
			cipher.encryptWithInstanceKey(JSON.stringify(data)),
			now,
			now,
		);
	}
	const select = db.prepare(
		'SELECT id, name, type, data FROM credentials_entity WHERE id = ? AND type = ?',
	);
	return async (id: string) => {
		const row = select.get(id, 'performanceServiceApi') as {
			id: string;
			name: string;
			type: string;
			data: string;
		};
		return await new Credentials({ id: row.id, name: row.name }, row.type, row.data).getData();
	};
}

const readCredential = credentialStore();
const readTimes: number[] = [];

beforeAll(async () => {
	useHttpRequestNode();
	sandbox = await startSandbox({ quiet: true });
	TestCredentialsHelper.prototype.getDecrypted = async function (...args) {
		readCount++;
		return await originalGetDecrypted.apply(this, args);
	};
	await countReads('Performance Service (Site → Get)', () =>
		runBulk(
			sandbox,
			packageBulkNode('performanceService', {
				resource: 'site',
				operation: 'get',
				siteId: byId('site_1'),
			}),
			ITEMS,
		),
	);
	await countReads('n8n HTTP Request node (predefined credential type)', () =>
		runBulk(
			sandbox,
			httpRequestNode(
				'HTTP Request',
				`${sandbox.performanceUrl}/sites/site_1`,
				'performanceServiceApi',
			),
			ITEMS,
		),
	);
	TestCredentialsHelper.prototype.getDecrypted = originalGetDecrypted;
});

afterAll(async () => {
	await sandbox.close();
	const sorted = [...readTimes].sort((a, b) => a - b);
	const perReadMs = sorted[Math.floor(sorted.length / 2)];
	const ours = reads.get('Performance Service (Site → Get)') ?? 0;
	const rows = [...reads].map(([name, count]) => [
		name,
		count,
		`${((count - ours) * perReadMs).toFixed(2)} ms`,
	]);
	rows.push([
		"the package before issue 11 (its own read + n8n's, on every request)",
		2 * ITEMS,
		`${((2 * ITEMS - ours) * perReadMs).toFixed(2)} ms`,
	]);
	printTable(
		`Credential reads in one execution of ${ITEMS} items; one read (SQLite row + n8n-core decryption, no ORM) ≈ ${(perReadMs * 1000).toFixed(0)} µs (median)`,
		['node', 'getCredentials calls', 'extra time against this package, at that cost per read'],
		rows,
	);
});

describe('one credential read as real n8n does it (lower bound: SQLite row + n8n-core decryption, no ORM)', () => {
	let id = 0;
	bench(
		'read and decrypt one credential',
		async () => {
			const started = performance.now();
			await readCredential(`cred${id++ % 1000}`);
			readTimes.push(performance.now() - started);
		},
		{ time: 1000, warmupTime: 100 },
	);
});
