/**
 * What every fake of n8n's order of work for a webhook call (n8nWebhookContract.ts) shares: the
 * response object n8n hands the node, and the static data as n8n's database keeps it.
 */
import { EventEmitter } from 'node:events';

import { ObservableObject, type IDataObject } from 'n8n-workflow';

/**
 * A response as n8n hands it to a node, in Node's order: 'finish' once answered, then 'close';
 * 'close' alone when the caller left (an answer to a caller already gone emits nothing).
 */
export class FakeResponse extends EventEmitter {
	statusCode = 200;
	headersSent = false;
	writableEnded = false;
	closed = false;
	destroyed = false;
	body?: string;

	setHeader(): void {}

	end(body?: string): void {
		if (this.headersSent) return;
		this.headersSent = true;
		if (this.closed) return;
		this.writableEnded = true;
		this.body = body;
		this.emit('finish');
		this.leave();
	}

	leave(): void {
		if (this.closed) return;
		this.closed = this.destroyed = true;
		this.emit('close');
	}
}

/**
 * A workflow's static data as n8n's database holds it (A3): JSON, loaded anew by every call and
 * wrapped as n8n's Workflow does, saved whole when the call changed it.
 */
export class StaticDataStore {
	json = '{}';

	load(): IDataObject {
		return ObservableObject.create(JSON.parse(this.json) as IDataObject, undefined, {
			ignoreEmptyOnFirstChild: true,
		});
	}

	/** `whole`: saved whatever its "changed" mark says (an execution saving what it loaded). */
	save(data: IDataObject, whole = false): void {
		if (!whole && data.__dataChanged !== true) return;
		this.json = JSON.stringify(data);
		data.__dataChanged = false;
	}

	/** A4: preparing the execution wraps the static data anew, which clears its "changed" mark. */
	prepareExecution(data: IDataObject): void {
		ObservableObject.create(data, undefined, { ignoreEmptyOnFirstChild: true });
	}

	/** The static data as saved last. */
	get saved(): IDataObject {
		return JSON.parse(this.json) as IDataObject;
	}
}
