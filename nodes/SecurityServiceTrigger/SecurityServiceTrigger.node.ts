import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { readQueryParameters } from '../shared/queryParameters';
import { SECURITY_SERVICE, securityList } from '../shared/securityTransport';
import { newestRecord } from './newestRecord';
import { firstMemory, nextPoll, readMemory } from './pollMemory';
import { triggerProperties } from './properties';
import { identifyRecords, type IdentifiedRecord } from './recordIds';
import { matchesFilters, readFilters } from './recordFilters';
import { findEvent } from './triggerEvents';

/** Key of the memory in the node's static data. */
const MEMORY_KEY = 'seen';

function toItems(records: IdentifiedRecord[]): INodeExecutionData[][] {
	return [records.map(({ record }) => ({ json: record, pairedItem: { item: 0 } }))];
}

export class SecurityServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Security Service Trigger',
		name: 'securityServiceTrigger',
		icon: { light: 'file:../SecurityService/securityService.svg', dark: 'file:../SecurityService/securityService.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: '={{"New " + $parameter["event"].slice(3)}}',
		description: 'Starts the workflow when the security service lists a new threat, scan, update or report',
		defaults: { name: 'Security Service Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'securityServiceApi', required: true }],
		properties: triggerProperties,
	};

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		const event = findEvent(this.getNode(), this.getNodeParameter('event'));
		const filters = readFilters(event, this.getNodeParameter('filters', {}));
		const qs = readQueryParameters(this.getNodeParameter('queryParameters', {}));
		const records = await securityList(
			this,
			{ method: 'GET', path: event.path, qs },
			{ plural: event.plural, returnAll: true, limit: 0 },
		);
		const identified = identifyRecords(this.getNode(), records, event.plural);
		const wanted = (record: IDataObject) => matchesFilters(record, filters);

		if (this.getMode() === 'manual') {
			const newest = newestRecord(identified.filter(({ record }) => wanted(record)));
			return newest ? toItems([newest]) : null;
		}

		const credentials = await this.getCredentials(SECURITY_SERVICE.credentialType);
		const baseUrl = String(credentials.baseUrl ?? '').trim().replace(/\/+$/, '');
		const source = JSON.stringify({ event: event.value, baseUrl, qs, filters });
		const staticData = this.getWorkflowStaticData('node');
		const memory = readMemory(staticData[MEMORY_KEY], source);
		if (!memory) {
			staticData[MEMORY_KEY] = firstMemory(source, identified);
			return null;
		}
		const outcome = nextPoll(memory, identified, wanted);
		staticData[MEMORY_KEY] = outcome.memory;
		return outcome.emit.length > 0 ? toItems(outcome.emit) : null;
	}
}
