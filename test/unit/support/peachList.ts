import type { IDataObject } from 'n8n-workflow';

/**
 * What Peach itself lists of the template messages it queued (`GET /api/v1/template_messages`,
 * docs/peach-api.md 2.3): one record per accepted send, as the unit harness's fake Peach answers the list.
 * It lives beside n8n's store in a test's execution (n8nRecovery.ts): Peach keeps it whatever n8n does.
 *
 * Peach's documentation shows each message's `id` and `status` and four more fields it does not
 * name: `shows: 'contact and template'` lists the contact's number and the template's ID as well
 * (as the sandbox does), `shows: 'documented'` only what the documentation shows.
 */
export class FakePeachList {
	readonly messages: IDataObject[] = [];
	/** The list requests the node made (their query). */
	readonly reads: IDataObject[] = [];
	/** Whether a request the node never got an answer to (the process died) reached Peach. */
	unansweredReachPeach = true;
	/** An error to answer list requests with (Peach's list down). */
	failing: Error | undefined;

	constructor(readonly shows: 'contact and template' | 'documented' = 'contact and template') {}

	/** Peach queued a template message (a send it accepted). */
	accept(phoneNumber: string, templateId: string, at = new Date()): string {
		const id = `cmsg_${this.messages.length + 1}`;
		this.messages.push({
			id,
			status: 'queued',
			...(this.shows === 'documented'
				? {}
				: { phone_number: phoneNumber, whats_app_template_id: templateId }),
			updated_at: at.toISOString(),
		});
		return id;
	}

	/** The list's answer to `?updated_since=&per=&page=`, as Peach documents it. */
	answer(query: IDataObject): IDataObject {
		this.reads.push(query);
		if (this.failing) throw this.failing;
		const since = Date.parse(String(query.updated_since ?? '')) || Date.now() - 24 * 3600_000;
		const per = Number(query.per ?? 50);
		const page = Number(query.page ?? 1);
		const matching = this.messages.filter(
			(message) => Date.parse(String(message.updated_at)) >= since,
		);
		const slice = matching.slice((page - 1) * per, page * per);
		const more = page * per < matching.length;
		return {
			count: matching.length,
			next: more ? `https://peach.test/api/v1/template_messages?page=${page + 1}&per=${per}` : null,
			prev:
				page > 1 ? `https://peach.test/api/v1/template_messages?page=${page - 1}&per=${per}` : null,
			template_messages: slice,
		};
	}
}
