/**
 * Why a delivery starts nothing, said where a person looks: a refused delivery is still refused (the
 * same status and body), and it also starts the workflow on the Refused output when the editor
 * listens for a test event (always) or, in production, when Options → Report Refused Deliveries
 * names its reason (at most once a minute per reason, with the number refused since the last report).
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

/** Every reason the trigger refuses a delivery for, as named in the Refused output's `reason`. */
export type RefusalReason =
	| 'missingSecret'
	| 'wrongSecret'
	| 'notPeachBody'
	| 'eventNotSelected'
	| 'messageTypeFilteredOut'
	| 'duplicate';

/** A refused delivery: its answer (unchanged by reporting) and what the Refused output says of it. */
export interface Refusal {
	reason: RefusalReason;
	/** 401 and 400 are answered `{"message": answer}`; 200 `{"received": true, "ignored": answer}`. */
	status: 401 | 400 | 200;
	answer: string;
	/** What happened, for a person; never the secret or the token received. */
	message: string;
	/** What to change so the next delivery starts the workflow. */
	fix: string;
	/** The event the delivery carried, when its body could be read. */
	event?: string;
}

/** Report Refused Deliveries' choices, each standing for one or two reasons. */
export const REPORT_CHOICES: Record<string, RefusalReason[]> = {
	secret: ['missingSecret', 'wrongSecret'],
	body: ['notPeachBody'],
	event: ['eventNotSelected'],
	messageType: ['messageTypeFilteredOut'],
	duplicate: ['duplicate'],
};

/** At most one report per reason in this long, per trigger node, and how many nodes are remembered. */
export const REPORT_LIMITS = { everyMs: 60_000, nodes: 500 };

interface Tally {
	/** performance.now() of the last report; undefined before the first. */
	reportedAt?: number;
	/** Refused since the last report, and when the first of them came (epoch ms). */
	count: number;
	since: number;
}

/**
 * Refusals counted per trigger node (workflow:node) and reason, in this process's memory: n8n's
 * workflow static data is saved only after an execution (and not at all on n8n 2.40's webhook path
 * that answers once the run is stored), last-writer-wins, so a flood would write it per delivery and
 * lose counts; node context (getContext) belongs to one execution and webhook functions have none.
 */
const tallies = new Map<string, Map<RefusalReason, Tally>>();

function tallyOf(scope: string, reason: RefusalReason, now: number): Tally {
	let node = tallies.get(scope);
	if (node === undefined) {
		node = new Map();
		tallies.set(scope, node);
		while (tallies.size > REPORT_LIMITS.nodes)
			tallies.delete(tallies.keys().next().value as string);
	}
	let tally = node.get(reason);
	if (tally === undefined) {
		tally = { count: 0, since: now };
		node.set(reason, tally);
	}
	return tally;
}

/**
 * Counts one refusal of `reason` for the node `scope`; returns the report to make now (the number
 * refused since the last report, this one included, and since when), or undefined when a report of
 * this reason was made less than REPORT_LIMITS.everyMs ago: this one is counted into the next.
 */
export function countRefusal(
	scope: string,
	reason: RefusalReason,
): { count: number; since: string } | undefined {
	// A monotonic clock for the interval: a wall clock stepped back would silence the reports.
	const now = performance.now();
	const tally = tallyOf(scope, reason, Date.now());
	if (tally.count === 0) tally.since = Date.now();
	tally.count++;
	if (tally.reportedAt !== undefined && now - tally.reportedAt < REPORT_LIMITS.everyMs) {
		return undefined;
	}
	const report = { count: tally.count, since: new Date(tally.since).toISOString() };
	tally.reportedAt = now;
	tally.count = 0;
	return report;
}

/** Whether Report Refused Deliveries names this reason. */
export function reportsReason(choices: unknown, reason: RefusalReason): boolean {
	return (
		Array.isArray(choices) &&
		choices.some((choice) => REPORT_CHOICES[String(choice)]?.includes(reason) === true)
	);
}

/** The Refused output's item, or undefined when this refusal is not reported. */
function reportOf(context: IWebhookFunctions, refusal: Refusal): IDataObject | undefined {
	const receivedAt = new Date().toISOString();
	let tally = { count: 1, since: receivedAt };
	// A test delivery (the editor listening) always shows, and is not counted with production's.
	if (context.getMode() !== 'manual') {
		const options = context.getNodeParameter('options', {}) as IDataObject;
		if (!reportsReason(options.reportRefused, refusal.reason)) return undefined;
		const node = context.getNode();
		const counted = countRefusal(
			`${context.getWorkflow().id ?? ''}:${node.id ?? node.name}`,
			refusal.reason,
		);
		if (counted === undefined) return undefined;
		tally = counted;
	}
	return {
		reason: refusal.reason,
		message: refusal.message,
		fix: refusal.fix,
		...(refusal.event === undefined ? {} : { event: refusal.event }),
		answeredWith: refusal.status,
		count: tally.count,
		since: tally.since,
		receivedAt,
	};
}

/**
 * Answers a refused delivery as before (401/400 with `{"message"}`, 200 with `{"received": true,
 * "ignored"}`) and, when it is reported, starts the workflow with one item on the Refused output
 * (the second) and nothing on the first.
 */
export function refuse(context: IWebhookFunctions, refusal: Refusal): IWebhookResponseData {
	const report = reportOf(context, refusal);
	let answer: IWebhookResponseData;
	if (refusal.status === 200) {
		answer = { webhookResponse: { received: true, ignored: refusal.answer } };
	} else {
		context.getResponseObject().status(refusal.status).json({ message: refusal.answer });
		answer = { noWebhookResponse: true };
	}
	if (report !== undefined) {
		answer.workflowData = [[], context.helpers.returnJsonArray([report])];
	}
	return answer;
}
