import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { readBaseUrl } from '../shared/http/baseUrl';
import { readQueryParameters } from '../shared/parameters/queryParameters';
import { SECURITY_SERVICE } from './transport';
import { securityListReader } from './trigger/pageWalk';
import { newestListed } from './trigger/manualRun';
import { firstPoll, nextPoll } from './trigger/pollNewRecords';
import { configurationFingerprint, readMemory, storedMemory } from './trigger/pollMemory';
import { triggerProperties } from './trigger/triggerProperties';
import type { IdentifiedRecord } from './trigger/recordIds';
import { matchesFilters, readFilters } from './trigger/recordFilters';
import { findEvent } from './trigger/triggerEvents';

/** Key of the memory in the node's static data. */
const MEMORY_KEY = 'seen';

function toItems(records: IdentifiedRecord[]): INodeExecutionData[][] {
	return [records.map(({ record }) => ({ json: record, pairedItem: { item: 0 } }))];
}

export class SecurityServiceTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Security Service Trigger',
		name: 'securityServiceTrigger',
		icon: {
			light: 'file:securityService.svg',
			dark: 'file:securityService.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"New " + $parameter["event"].slice(3)}}',
		description:
			'Starts the workflow when the security service lists a new threat, scan, update or report',
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
		const wanted = (record: IDataObject) => matchesFilters(record, filters);

		const baseUrl = await readBaseUrl(this, SECURITY_SERVICE);
		const configuration = JSON.stringify({ event: event.value, baseUrl, qs, filters });
		const staticData = this.getWorkflowStaticData('node');
		const memory = readMemory(staticData[MEMORY_KEY], configuration);

		if (this.getMode() === 'manual') {
			const manualReader = securityListReader(this, event, qs, { budgeted: false });
			const newest = await newestListed(manualReader, wanted, memory);
			return newest ? toItems([newest]) : null;
		}

		const reader = securityListReader(this, event, qs, { budgeted: true });
		if (!memory) {
			const first = await firstPoll(reader, configurationFingerprint(configuration), Date.now());
			staticData[MEMORY_KEY] = storedMemory(first);
			return null;
		}
		const outcome = await nextPoll(reader, memory, wanted);
		staticData[MEMORY_KEY] = storedMemory(outcome.memory);
		return outcome.emit.length > 0 ? toItems(outcome.emit) : null;
	}
}
