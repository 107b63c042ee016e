import path from 'node:path';

import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { runNode, type RunNodeOptions } from '../../support/harness/runNode.mts';
import { serviceAnswer, withSandbox } from '../../support/harness/sandbox.mts';
import { PACKAGE_ROOT } from '../../support/n8n/paths.mts';
import type { SandboxOptions } from '../../support/sandbox/index.mts';

/** Where the Performance Service node's files (schemas, icons, codex) are. */
export const NODE_DIR = path.join(PACKAGE_ROOT, 'nodes/PerformanceService');

/** The keys of a simplified site, in order. */
export const SIMPLE_SITE_KEYS = [
	'id',
	'name',
	'hostname',
	'status',
	'auditCount',
	'latestAudit',
	'latestScores',
];

/**
 * Starts a sandbox for the calling test file (see withSandbox) and returns it with `run`, which
 * runs the Performance Service node against it, and `serviceJson`, which reads an answer of the
 * service directly.
 */
export function performanceSandbox(options: SandboxOptions = {}) {
	const sandbox = withSandbox(options);
	const run = (parameters: INodeParameters, runOptions: RunNodeOptions = {}) =>
		runNode('performanceService', parameters, { sandbox, ...runOptions });
	const serviceJson = async (servicePath: string) =>
		(await serviceAnswer(sandbox, 'performance', servicePath)) as IDataObject;
	return { sandbox, run, serviceJson };
}
