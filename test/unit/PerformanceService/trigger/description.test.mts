import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { describe, expect, it } from 'vitest';

import { PerformanceServiceTrigger } from '../../../../nodes/PerformanceService/PerformanceServiceTrigger.node.ts';
import { PERFORMANCE_EVENT_TYPES as EVENT_TYPES } from '../../../../nodes/PerformanceService/transport/serviceValues.ts';
import { PACKAGE_ROOT } from '../../../support/n8n/paths.mts';

const { description } = new PerformanceServiceTrigger();
const SCHEMA_DIR = path.join(PACKAGE_ROOT, 'nodes/PerformanceService/__schema__');

interface Schema {
	properties: { type: { enum: string[] }; data: { properties: Record<string, unknown> } };
}

function readSchema(relativePath: string): Schema {
	return JSON.parse(readFileSync(path.join(SCHEMA_DIR, relativePath), 'utf8')) as Schema;
}

describe('Performance Service Trigger description', () => {
	it('is a POST webhook trigger of one version, 1.1, that answers by itself and is no AI tool', () => {
		expect(description).toMatchObject({
			name: 'performanceServiceTrigger',
			version: 1.1,
			group: ['trigger'],
			inputs: [],
		});
		expect(description.usableAsTool).toBeUndefined();
		// n8n answers accepted deliveries with the node's webhookResponse once the execution exists.
		expect(description.webhooks).toEqual([
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				responseData: '',
				path: 'webhook',
			},
		]);
		expect(description.credentials).toEqual([{ name: 'performanceServiceApi', required: true }]);
	});

	it('offers every event type of the service, and "*" by default', () => {
		const events = description.properties.find((property) => property.name === 'events');
		expect(events?.default).toEqual(['*']);
		expect(
			events?.options?.map((option) => ('value' in option ? option.value : undefined)).sort(),
		).toEqual(['*', ...EVENT_TYPES].sort());
	});

	it('keeps the public option names, the 300 s default tolerance and the 24 h duplicate window', () => {
		const options = description.properties.find((property) => property.name === 'options');
		const names = options?.options?.map((option) => ('name' in option ? option.name : undefined));
		expect(names).toEqual(['duplicateWindowHours', 'includeDeliveryHeaders', 'timestampTolerance']);
		expect(options?.options?.find((option) => option.name === 'timestampTolerance')).toMatchObject({
			default: 300,
		});
		expect(
			options?.options?.find((option) => option.name === 'duplicateWindowHours'),
		).toMatchObject({ default: 24 });
	});

	it('has an output schema per event type, and a combined one covering all of them', () => {
		const combined = readSchema('v1.1.0.json');
		expect([...combined.properties.type.enum].sort()).toEqual([...EVENT_TYPES].sort());
		for (const type of EVENT_TYPES) {
			const file = `v1.1.0/event/${type}.json`;
			expect(existsSync(path.join(SCHEMA_DIR, file)), file).toBe(true);
			const perEvent = readSchema(file);
			expect(perEvent.properties.type.enum).toEqual([type]);
			for (const field of Object.keys(perEvent.properties.data.properties)) {
				expect(combined.properties.data.properties, `${type} data.${field}`).toHaveProperty([
					field,
				]);
			}
		}
	});
});
