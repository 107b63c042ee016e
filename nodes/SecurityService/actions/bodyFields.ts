import {
	jsonParse,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeProperties,
} from 'n8n-workflow';

import { isRecord } from '../../shared/lists/recordFields';

/** A JSON object of further body fields: the service does not publish its request fields. */
export function additionalFieldsProperty(
	resource: string,
	operation: string,
	example: string,
): INodeProperties {
	return {
		displayName: 'Additional Fields (JSON)',
		name: 'additionalFields',
		type: 'json',
		default: '{}',
		displayOptions: { show: { resource: [resource], operation: [operation] } },
		description: `Further fields to send to the service, as a JSON object, e.g. ${example}. The fields above take precedence over fields of the same name here.`,
	};
}

/** The "Additional Fields (JSON)" object; anything but an object is refused with a fix hint. */
export function readAdditionalFields(ctx: IExecuteFunctions, itemIndex: number): IDataObject {
	const raw = ctx.getNodeParameter('additionalFields', itemIndex, '{}') as unknown;
	if (typeof raw === 'string' && raw.trim() === '') return {};
	const value = typeof raw === 'string' ? jsonParse<unknown>(raw, { fallbackValue: null }) : raw;
	if (!isRecord(value)) {
		throw new NodeOperationError(ctx.getNode(), 'Additional Fields (JSON) must be a JSON object', {
			itemIndex,
			description: 'Write the fields as an object, e.g. {"tags": ["shop"]}, or leave it as {}.',
		});
	}
	return value;
}
