import {
	ICredentialsHelper,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentials,
	type ICredentialType,
	type IDataObject,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeProperties,
	type IRequestOptionsSimplified,
} from 'n8n-workflow';

import { createNodeTypes } from './nodeTypes.mts';
import type { PackageTypes } from './packageTypes.mts';

/**
 * Serves decrypted credentials from memory and applies each credential type's own
 * `authenticate` the way n8n's CLI does: a function is called, a generic definition has its
 * expressions resolved against `$credentials`.
 */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly expressionWorkflow: Workflow;

	constructor(
		private readonly types: PackageTypes,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
		this.expressionWorkflow = new Workflow({
			nodes: [],
			connections: {},
			active: false,
			nodeTypes: createNodeTypes(types),
		});
	}

	private credentialType(name: string): ICredentialType {
		const type = this.types.credentials.get(name);
		if (!type) throw new Error(`Unknown credential type ${name}`);
		return type;
	}

	resolve(value: string, credentials: ICredentialDataDecryptedObject, node?: INode): string {
		if (!value.startsWith('=')) return value;
		const resolved = this.expressionWorkflow.expression.getSimpleParameterValue(
			node ??
				({
					name: 'credentials',
					type: 'test',
					typeVersion: 1,
					parameters: {},
					position: [0, 0],
					id: 'c',
				} as INode),
			value,
			'internal',
			{ $credentials: credentials },
			undefined,
			'',
		);
		return String(resolved);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		_workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = this.credentialType(typeName);
		const options = requestOptions as IHttpRequestOptions;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		if (authenticate?.type !== 'generic') return options;
		const target = options as unknown as Record<string, IDataObject | undefined>;
		for (const [section, entries] of Object.entries(authenticate.properties)) {
			target[section] ??= {};
			for (const [key, value] of Object.entries(entries as Record<string, string>)) {
				target[section][this.resolve(key, credentials, node)] = this.resolve(
					value,
					credentials,
					node,
				);
			}
		}
		return options;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async getCredentials(_details: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		throw new Error(`getCredentials(${type}) is not used by these nodes`);
	}

	async getDecrypted(
		_additionalData: unknown,
		_details: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const found = this.data[type];
		if (!found) throw new Error(`No test credentials of type ${type}`);
		return { ...found };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.credentialType(type).properties;
	}
}
