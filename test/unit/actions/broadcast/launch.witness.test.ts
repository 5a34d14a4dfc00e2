import type { IDataObject } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { isThisLaunch } from '../../../../nodes/Peach/actions/broadcast/launch.witness';
import type { LaunchPlan } from '../../../../nodes/Peach/actions/broadcast/launchBase';
import { NEVER_ANSWERED } from '../../support/harness';
import { crashRetry, editorRetry, newExecution } from '../../support/n8nRecovery';
import {
	asked,
	minutesLater,
	crashedExecution,
	ledgerTry,
	PeachLedger,
	unknownThenRetry,
} from '../../support/peachLedger';
import { phones, serverError } from '../../support/recoveryRuns';
import { springSale as launch } from '../../support/templates';
import { trigger } from '../automation/run';

/**
 * Broadcast → Launch with Peach as witness: a broadcast Peach lists with the same name and template,
 * created since the execution began, is not launched again by a Retry; where the list cannot tell,
 * the launch's outcome stays unknown.
 */

const LATER = '2026-03-01T10:05:00Z';

const plan = (broadcast: IDataObject): LaunchPlan => ({
	recipients: 'audience',
	broadcast: { name: 'Spring sale', whats_app_template_id: 'wat_welcome', ...broadcast },
});
const listed = (json: IDataObject, at: string | null = LATER) => ({
	json: { id: 'cmp_1', name: 'Spring sale', whats_app_template_id: 'wat_welcome', ...json },
	at: at === null ? undefined : Date.parse(at),
});

describe('whether a broadcast Peach lists is this launch', () => {
	it.each<[string, LaunchPlan, ReturnType<typeof listed>, boolean | 'cannotTell']>([
		['same name and template, created since', plan({}), listed({}), true],
		[
			'the template as whats_app_template.id',
			plan({}),
			listed({ whats_app_template_id: undefined, whats_app_template: { id: 'wat_welcome' } }),
			true,
		],
		['another name', plan({}), listed({ name: 'Winter sale' }), false],
		['another template', plan({}), listed({ whats_app_template_id: 'wat_other' }), false],
		['another audience', plan({ audience_id: 'aud_1' }), listed({ audience_id: 'aud_2' }), false],
		['the same audience', plan({ audience_id: 'aud_1' }), listed({ audience_id: 'aud_1' }), true],
		['a list that names no broadcast', plan({}), listed({ name: undefined }), 'cannotTell'],
		[
			'a list without templates',
			plan({}),
			listed({ whats_app_template_id: undefined }),
			'cannotTell',
		],
		['no created-at', plan({}), listed({}, null), 'cannotTell'],
	])('%s', (_, launchPlan, seen, verdict) => {
		const said = isThisLaunch(launchPlan, seen);
		expect(typeof said === 'string' ? 'cannotTell' : said).toBe(verdict);
	});
});

/** The launch to two contacts. */
const launchToTwo = () => phones(2).map((phone) => launch(phone));

/** A ledger that lists one broadcast of wat_welcome, `name`, created at `createdAt`. */
function listing(name: string, createdAt: string) {
	const ledger = new PeachLedger();
	ledger.broadcasts.push({
		id: 'cmp_0',
		name,
		whats_app_template_id: 'wat_welcome',
		created_at: createdAt,
	});
	return ledger;
}

describe('a Retry of a launch whose outcome is unknown', () => {
	it("Peach lists it: alreadySent with Peach's broadcast; the list read once, not launched again", async () => {
		// One of the same name before the execution began does not count.
		const ledger = listing('Spring sale', '2023-01-01T00:00:00Z');
		const { retry, items } = await unknownThenRetry(ledger, launchToTwo());
		expect(asked(retry)).toEqual(['GET /broadcasts?page=1']);
		expect(ledger.broadcasts).toHaveLength(2);
		expect(items).toHaveLength(1);
		expect(items[0].json).toMatchObject({
			id: 'cmp_2',
			name: 'Spring sale',
			alreadySent: {
				peach: { id: 'cmp_2', status: 'sending' },
				note: 'Not launched again: Peach lists broadcast cmp_2 "Spring sale" (sending) with this template, created since the execution began, and n8n\'s record did not show this launch\'s outcome.',
			},
		});
		expect(items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('several such broadcasts since the execution began: outcomeUnknown, not launched', async () => {
		const ledger = listing('Spring sale', new Date().toISOString());
		const { retry, items } = await unknownThenRetry(ledger, launchToTwo());
		expect(asked(retry)).toEqual(['GET /broadcasts?page=1']);
		expect(String((items[0].json.outcomeUnknown as IDataObject).reason)).toContain(
			'Peach shows 2 such records since the execution began for 1 such delivery here',
		);
		expect(ledger.broadcasts).toHaveLength(2);
	});

	it('a list without created-at: outcomeUnknown, named', async () => {
		const ledger = new PeachLedger();
		const { items } = await unknownThenRetry(
			Object.assign(ledger, {
				answer(this: PeachLedger, request: Parameters<PeachLedger['answer']>[0]) {
					const answer = PeachLedger.prototype.answer.call(this, request);
					if (request.options.method !== 'GET' || typeof answer === 'symbol') return answer;
					const body = answer.body as { broadcasts: IDataObject[] };
					return {
						...answer,
						body: {
							broadcasts: body.broadcasts.map((listed) => {
								const copy = { ...listed };
								delete copy.created_at;
								return copy;
							}),
						},
					};
				},
			}),
			launchToTwo(),
		);
		expect(String((items[0].json.outcomeUnknown as IDataObject).reason)).toContain(
			'without saying when it was created',
		);
	});

	it('Peach lists none (only other names): it is launched, once', async () => {
		const ledger = listing('Other', new Date().toISOString());
		const params = launchToTwo();
		const original = newExecution();
		await ledgerTry(original, params, { answer: () => serverError });
		const retry = await ledgerTry(editorRetry(minutesLater(original)), params, ledger);
		expect(asked(retry)).toEqual(['GET /broadcasts?page=1', 'POST /events']);
		expect(ledger.broadcasts.map((broadcast) => broadcast.name)).toEqual(['Other', 'Spring sale']);
	});

	it('the Retry of a crashed execution (the launch under way when the worker died): not launched twice', async () => {
		const ledger = new PeachLedger();
		ledger.next.push(NEVER_ANSWERED);
		const params = launchToTwo();
		const original = await crashedExecution(ledger, params, 1);
		const retry = await ledgerTry(crashRetry(original), params, ledger);
		expect(asked(retry)).toEqual(['GET /broadcasts?page=1']);
		expect(retry.error).toBeUndefined();
		expect(ledger.broadcasts).toHaveLength(1);
	});
});

describe('Automation → Trigger: Peach lists no runs of an automation', () => {
	it('an unknown outcome stays unknown: the record alone decides, nothing is asked or made', async () => {
		const { retry, items } = await unknownThenRetry(new PeachLedger(), [trigger]);
		expect(asked(retry)).toEqual([]);
		expect(items[0].json.outcomeUnknown).toMatchObject({ recipient: '+919988776655' });
	});
});
