import {
	NodeConnectionTypes,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { readBaseUrl } from '../shared/baseUrl';
import { readQueryParameters } from '../shared/queryParameters';
import { SECURITY_SERVICE } from '../shared/securityTransport';
import { securityListReader } from './listPages';
import { newestListed } from './manualRun';
import { firstPoll, nextPoll } from './pollList';
import { configurationFingerprint, readMemory, storedMemory } from './pollMemory';
import { triggerProperties } from './properties';
import type { IdentifiedRecord } from './recordIds';
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
		icon: {
			light: 'file:../SecurityService/securityService.svg',
			dark: 'file:../SecurityService/securityService.dark.svg',
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
