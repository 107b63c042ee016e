import { existsSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

import type { INode, IVersionedNodeType } from 'n8n-workflow';

import { n8nInstallDir, N8N_VERSION } from '../test/support/n8n/paths.mts';

export const HTTP_REQUEST_NODE_TYPE = 'n8n-nodes-base.httpRequest';

const SHARED_PACKAGES = ['n8n-workflow', 'n8n-core'];

interface ModuleResolver {
	_resolveFilename(
		request: string,
		parent: { filename?: string | null } | undefined,
		...rest: unknown[]
	): string;
}

/**
 * n8n's own HTTP Request node from the n8n install the end-to-end suite uses
 * (`node test/support/n8n/install.mts`), loaded so that it shares this repository's n8n-workflow and
 * n8n-core with the nodes under test: both run through the same engine and helpers.
 */
export function loadHttpRequestNode(): IVersionedNodeType {
	const nodeModules = path.join(n8nInstallDir(), 'node_modules');
	const file = path.join(
		nodeModules,
		'n8n-nodes-base',
		'dist',
		'nodes',
		'HttpRequest',
		'HttpRequest.node.js',
	);
	if (!existsSync(file)) {
		throw new Error(
			`n8n ${N8N_VERSION} is not installed at ${nodeModules}: run \`node test/support/n8n/install.mts\` first`,
		);
	}
	const ours = createRequire(import.meta.url);
	const resolver = Module as unknown as ModuleResolver;
	const original = resolver._resolveFilename;
	resolver._resolveFilename = function (request, parent, ...rest) {
		const fromInstall = parent?.filename?.startsWith(nodeModules) === true;
		const shared = SHARED_PACKAGES.some(
			(name) => request === name || request.startsWith(`${name}/`),
		);
		return fromInstall && shared
			? ours.resolve(request)
			: original.call(this, request, parent, ...rest);
	};
	try {
		const loaded = ours(file) as { HttpRequest: new () => IVersionedNodeType };
		return new loaded.HttpRequest();
	} finally {
		resolver._resolveFilename = original;
	}
}

/** An HTTP Request node (version 4.2) sending GET `url` with the package's credential type. */
export function httpRequestNode(
	name: string,
	url: string,
	credentialType: string,
	settings: Partial<Pick<INode, 'retryOnFail' | 'maxTries' | 'waitBetweenTries' | 'onError'>> = {},
): INode {
	return {
		id: `http-${name}`,
		name,
		type: HTTP_REQUEST_NODE_TYPE,
		typeVersion: 4.2,
		position: [400, 0],
		parameters: {
			method: 'GET',
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: credentialType,
			options: {},
		},
		credentials: { [credentialType]: { id: credentialType, name: credentialType } },
		...settings,
	};
}
