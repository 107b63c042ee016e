import { ExecuteContext, RoutingNode } from 'n8n-core';
import {
	createRunExecutionData,
	NodeConnectionTypes,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialsDecrypted,
	type ICredentialTestRequest,
	type ICredentialType,
	type INode,
	type INodeType,
	type INodeTypes,
} from 'n8n-workflow';

import { loadPackageTypes } from './packageTypes.mts';
import { buildAdditionalData } from './runWorkflow.mts';

export interface CredentialTestResult {
	status: 'OK' | 'Error';
	message: string;
}

/** The throwaway node n8n's credential tester builds around a declarative `test` request. */
function testNodeType(typeName: string, test: ICredentialTestRequest): INodeType {
	return {
		description: {
			displayName: 'Credential test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: 'Runs a credential test request',
			defaults: {},
			inputs: [NodeConnectionTypes.Main],
			outputs: [NodeConnectionTypes.Main],
			credentials: [{ name: typeName, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.request },
					default: '',
				},
			],
		},
	};
}

/** n8n fills fields the stored credential lacks with the properties' defaults. */
function withDefaults(
	type: ICredentialType,
	data: ICredentialDataDecryptedObject,
): ICredentialDataDecryptedObject {
	const filled: ICredentialDataDecryptedObject = { ...data };
	for (const property of type.properties) {
		if (filled[property.name] === undefined && property.default !== undefined) {
			filled[property.name] = property.default as ICredentialDataDecryptedObject[string];
		}
	}
	return filled;
}

/** lodash's `get`, as n8n's tester uses it: a text's `0` is its first character. */
function valueAt(data: unknown, path: string): unknown {
	let current: unknown = data;
	for (const key of path.split('.')) {
		current =
			current !== null && current !== undefined
				? (current as Record<string, unknown>)[key]
				: undefined;
	}
	return current;
}

interface RoutingFailure {
	message?: string;
	cause?: { code?: string; response?: { status: number; statusText?: string } };
}

/** What n8n's tester answers for a request that threw: a matching rule, the status text, or the error code. */
function failureResult(error: RoutingFailure, test: ICredentialTestRequest): CredentialTestResult {
	const response = error.cause?.response;
	if (response) {
		for (const rule of test.rules ?? []) {
			if (rule.type === 'responseCode' && rule.properties.value === response.status) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
		if (response.status < 199 || response.status > 299) {
			return {
				status: 'Error',
				message: response.statusText || `Received HTTP status code: ${response.status}`,
			};
		}
	} else if (error.cause?.code) {
		return { status: 'Error', message: error.cause.code };
	}
	return { status: 'Error', message: String(error.message) };
}

/**
 * Tests credentials the way n8n's CredentialsTester does for a declarative `test`: it runs the
 * request through n8n-core's RoutingNode (the credential's own `authenticate` applies), matches
 * `responseCode` rules against a failed response and `responseSuccessBody` rules against a
 * successful one.
 */
export async function testCredential(
	typeName: string,
	data: ICredentialDataDecryptedObject,
): Promise<CredentialTestResult> {
	const types = await loadPackageTypes();
	const credentialType = types.credentials.get(typeName);
	const test = credentialType?.test;
	if (!credentialType || !test)
		return { status: 'Error', message: 'No testing function found for this credential.' };

	const filled = withDefaults(credentialType, data);
	const nodeType = testNodeType(typeName, test);
	const nodeTypes: INodeTypes = {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: nodeType.description.name,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [typeName]: { id: 'credential-under-test', name: typeName } },
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = buildAdditionalData(types, { [typeName]: filled });
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData({}),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: 'credential-under-test',
		name: typeName,
		type: typeName,
		data: filled,
	};

	let output;
	try {
		output = await new RoutingNode(context, nodeType, credentialsDecrypted).runNode();
	} catch (error) {
		return failureResult(error as RoutingFailure, test);
	}
	for (const rule of test.rules ?? []) {
		if (
			rule.type === 'responseSuccessBody' &&
			valueAt(output?.[0]?.[0]?.json as unknown, rule.properties.key) === rule.properties.value
		) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
