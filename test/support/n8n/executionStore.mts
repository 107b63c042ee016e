import { createRequire } from 'node:module';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/**
 * Reads n8n's executions straight from its database (SQLite file or Postgres), not through n8n's
 * API: polling the API while a batch runs would add n8n CPU time to what is measured, and listing
 * thousands of executions with their data costs seconds of it.
 */

export const UNFINISHED = new Set(['new', 'running', 'waiting']);

/** The ids newEvents() (eventBatch.mts) gives events (evt_ + a UUID); an execution's data holds its event's. */
const EVENT_ID = /evt_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

export interface ExecutionRow {
	id: number;
	status: string;
	/** Event ids found in the execution's data (one for an execution started by such an event). */
	eventIds: string[];
}

export interface ExecutionStore {
	/** The newest execution id of any workflow (0 when none). */
	maxId(): Promise<number>;
	/** Executions of a workflow newer than `afterId`, by status. */
	statusCounts(workflowId: string, afterId: number): Promise<Record<string, number>>;
	/** Executions of a workflow newer than `afterId`, with the event ids in their data. */
	executions(workflowId: string, afterId: number): Promise<ExecutionRow[]>;
	/** Size of the workflow's saved static data (what the trigger remembers), in bytes. */
	staticDataBytes(workflowId: string): Promise<number>;
	close(): Promise<void>;
}

function rowOf(id: unknown, status: unknown, data: unknown): ExecutionRow {
	const text = typeof data === 'string' ? data : '';
	return {
		id: Number(id),
		status: String(status),
		eventIds: [...new Set(text.match(EVENT_ID) ?? [])],
	};
}

const SQL = {
	maxId: 'SELECT COALESCE(MAX(id), 0) AS id FROM execution_entity',
	statusCounts:
		'SELECT status, COUNT(*) AS count FROM execution_entity WHERE "workflowId" = $1 AND id > $2 GROUP BY status',
	executions:
		'SELECT e.id AS id, e.status AS status, d.data AS data FROM execution_entity e LEFT JOIN execution_data d ON d."executionId" = e.id WHERE e."workflowId" = $1 AND e.id > $2 ORDER BY e.id',
};

/**
 * Runs `read` on n8n's SQLite file, opened read-only. A SIGKILLed n8n can leave a write-ahead log
 * that only a read-write connection may recover ("attempt to write a readonly database", seen
 * with n8n 1.x): then it is opened read-write once.
 */
export function readSqlite<T>(file: string, read: (db: DatabaseSync) => T): T {
	for (const readOnly of [true, false]) {
		const db = new DatabaseSync(file, { readOnly });
		try {
			db.exec('PRAGMA busy_timeout = 5000');
			return read(db);
		} catch (error) {
			if (!readOnly || !/readonly database/.test((error as Error).message)) throw error;
		} finally {
			db.close();
		}
	}
	throw new Error('unreachable');
}

/**
 * n8n's SQLite database (WAL mode, so reading does not block n8n's writes). Opened per query:
 * the crash test and the contract suite kill and restart n8n under it.
 */
export function sqliteStore(userFolder: string): ExecutionStore {
	const file = path.join(userFolder, '.n8n', 'database.sqlite');
	const query = <T,>(sql: string, ...params: Array<string | number>): T[] =>
		readSqlite(file, (db) => db.prepare(sql.replace(/\$\d/g, '?')).all(...params) as T[]);
	return {
		maxId: async () => Number(query<{ id: number }>(SQL.maxId)[0]?.id ?? 0),
		statusCounts: async (workflowId, afterId) =>
			Object.fromEntries(
				query<{ status: string; count: number }>(SQL.statusCounts, workflowId, afterId).map(
					(row) => [row.status, Number(row.count)],
				),
			),
		executions: async (workflowId, afterId) =>
			query<{ id: number; status: string; data: string | null }>(
				SQL.executions,
				workflowId,
				afterId,
			).map((row) => rowOf(row.id, row.status, row.data)),
		staticDataBytes: async (workflowId) =>
			Number(
				query<{ bytes: number | null }>(
					'SELECT LENGTH("staticData") AS bytes FROM workflow_entity WHERE id = ?',
					workflowId,
				)[0]?.bytes ?? 0,
			),
		close: async () => undefined,
	};
}

interface PgClient {
	connect(): Promise<void>;
	query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
	end(): Promise<void>;
}

/** n8n's Postgres database, through the `pg` driver of the n8n install. */
export async function postgresStore(
	installDir: string,
	n8nEnv: Record<string, string>,
): Promise<ExecutionStore> {
	const require = createRequire(path.join(installDir, 'node_modules', 'n8n', 'package.json'));
	const { Client } = require('pg') as { Client: new (options: object) => PgClient };
	const client = new Client({
		host: n8nEnv.DB_POSTGRESDB_HOST,
		port: Number(n8nEnv.DB_POSTGRESDB_PORT),
		database: n8nEnv.DB_POSTGRESDB_DATABASE,
		user: n8nEnv.DB_POSTGRESDB_USER,
		password: n8nEnv.DB_POSTGRESDB_PASSWORD,
	});
	await client.connect();
	const query = async <T,>(sql: string, params: unknown[] = []): Promise<T[]> =>
		(await client.query<T>(sql, params)).rows;
	return {
		maxId: async () => Number((await query<{ id: string }>(SQL.maxId))[0]?.id ?? 0),
		statusCounts: async (workflowId, afterId) =>
			Object.fromEntries(
				(
					await query<{ status: string; count: string }>(SQL.statusCounts, [workflowId, afterId])
				).map((row) => [row.status, Number(row.count)]),
			),
		executions: async (workflowId, afterId) =>
			(
				await query<{ id: number; status: string; data: string | null }>(SQL.executions, [
					workflowId,
					afterId,
				])
			).map((row) => rowOf(row.id, row.status, row.data)),
		staticDataBytes: async (workflowId) =>
			Number(
				(
					await query<{ bytes: string | null }>(
						'SELECT LENGTH("staticData"::text) AS bytes FROM workflow_entity WHERE id = $1',
						[workflowId],
					)
				)[0]?.bytes ?? 0,
			),
		close: () => client.end(),
	};
}

export interface Counts {
	executions: number;
	missing: number;
	doubled: number;
	statuses: Record<string, number>;
}

/** Executions per event id among `rows`, for the events `ids`: how many, none missing or doubled? */
export function countFor(rows: ExecutionRow[], ids: string[]): Counts {
	const wanted = new Set(ids);
	const perId = new Map<string, number>();
	const statuses: Record<string, number> = {};
	let executions = 0;
	for (const row of rows) {
		const id = row.eventIds.find((candidate) => wanted.has(candidate));
		if (!id) continue;
		executions += 1;
		perId.set(id, (perId.get(id) ?? 0) + 1);
		statuses[row.status] = (statuses[row.status] ?? 0) + 1;
	}
	return {
		executions,
		missing: ids.filter((id) => !perId.has(id)).length,
		doubled: [...perId.values()].filter((count) => count > 1).length,
		statuses,
	};
}
