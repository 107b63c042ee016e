import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Linux /proc readers: which process listens on a port, and a process's group (n8n and its task runner share one). */

export function numericDirs(): number[] {
	return readdirSync('/proc')
		.filter((name) => /^[0-9]+$/.test(name))
		.map(Number);
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
export function statFields(pid: number): string[] | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	} catch {
		return undefined; // the process is gone
	}
}

function listeningInode(port: number): string | undefined {
	const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		const lines = readFileSync(table, 'utf8').trim().split('\n').slice(1);
		for (const line of lines) {
			const fields = line.trim().split(/\s+/);
			// local_address is ADDR:PORT in hex; state 0A is LISTEN; field 9 is the socket inode.
			if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A') return fields[9];
		}
	}
	return undefined;
}

/** The process that listens on a TCP port, found through its socket's inode. */
export function listeningPid(port: number): number | undefined {
	const inode = listeningInode(port);
	if (!inode) return undefined;
	const socket = `socket:[${inode}]`;
	for (const pid of numericDirs()) {
		let fds: string[];
		try {
			fds = readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				if (readlinkSync(`/proc/${pid}/fd/${fd}`) === socket) return pid;
			} catch {
				// closed meanwhile
			}
		}
	}
	return undefined;
}

export function processGroupOf(pid: number): number {
	const fields = statFields(pid);
	if (!fields) throw new Error(`Process ${pid} is gone`);
	return Number(fields[2]);
}
