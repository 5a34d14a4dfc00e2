import type { IDataObject } from 'n8n-workflow';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { TEMPLATE_KEPT } from '../../../nodes/Peach/api/templates';
import { type FakeResponse, locator, runOverInputs, runPeach } from '../support/harness';
import { body, sendWelcomeByName as send, welcomeWith } from '../support/templates';

/**
 * The template a send is checked against is kept by the n8n process for TEMPLATE_KEPT.ms (a minute),
 * per credential (its ID, key and Base URL) and template: a run of single-send executions reads it
 * once. Every execution still checks every item against it (status, empty variables); a template
 * not approved, a refusal from Peach that names the template, a Dry Run and the end of the minute
 * read it again. Executions here share a credential (`credentialId`), as executions of one workflow
 * in one n8n process do; time is vitest's fake clock.
 */

beforeEach(() => {
	vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => {
	vi.useRealTimers();
});

const template = (status: string, text = 'Hi {{first_name}}, welcome!'): IDataObject => ({
	...welcomeWith(body(text)),
	status,
});
/** Peach's templates: wat_welcome in `status`. */
const inStatus = (status: string) => ({ wat_welcome: template(status) });
const approved = inStatus('approved');
const accepted: FakeResponse = { statusCode: 201, body: { status: 'success', event_id: 'evt_1' } };

const asha = { phone: '+919900000001', name: 'Asha' };
const nameless = { phone: '+919900000002', name: '' };

/**
 * Executions of `run` with one credential: the first reads the template, the next reads none; a
 * refusal (422, `reason`) naming the template makes the one after it read it again. The refusal.
 */
async function refusalReadsAfresh(
	run: (answer: FakeResponse) => ReturnType<typeof runOverInputs>,
	reason: IDataObject,
) {
	expect((await run(accepted)).templateReads).toEqual(['wat_welcome']);
	expect((await run(accepted)).templateReads).toEqual([]);
	const refused = await run(refusal(reason));
	expect((await run(accepted)).templateReads).toEqual(['wat_welcome']);
	return refused;
}

let credentials = 0;

/** A credential of the test's own (executions of other tests do not share what is kept). */
const newCredential = () => `kept-${++credentials}`;

/** One single-send execution with the credential `credentialId`, Peach answering `answer`. */
async function execution(
	credentialId: string,
	options: {
		input?: IDataObject;
		templates?: Record<string, IDataObject>;
		answer?: FakeResponse;
		params?: Record<string, unknown>;
		baseUrl?: string;
		apiKey?: string;
	} = {},
) {
	const { answer = accepted, input = asha, templates = approved, params = {}, ...more } = options;
	return await runOverInputs({ ...send, ...params }, [input], answer, {
		credentialId,
		templates,
		...more,
	});
}

/** Peach's refusal (422) for `reason`. */
const refusal = (reason: IDataObject): FakeResponse => ({
	statusCode: 422,
	body: { status: 'failed', reason },
});

/** What `run` was refused with, once it read `reads` of the templates and sent nothing. */
function unsent(run: Awaited<ReturnType<typeof execution>>, reads: string[]) {
	expect(run.templateReads).toEqual(reads);
	expect(run.requests).toEqual([]);
	return run.error?.message;
}

const sentTo = (run: { requests: Array<{ body: unknown }> }) =>
	run.requests.map((request) => (request.body as { contact: IDataObject }).contact.phone_number);

describe('the template kept by the n8n process', () => {
	it('a run of single-send executions reads the template once; each execution still checks its item against it', async () => {
		const credentialId = newCredential();
		const first = await execution(credentialId);
		expect(first.templateReads).toEqual(['wat_welcome']);
		expect(sentTo(first)).toEqual(['+919900000001']);

		vi.advanceTimersByTime(20_000);
		const second = await execution(credentialId, { input: { ...asha, phone: '+919900000003' } });
		expect(second.error).toBeUndefined();
		expect(second.templateReads).toEqual([]);
		expect(sentTo(second)).toEqual(['+919900000003']);

		// An empty variable is refused as before, against the kept copy: nothing is sent.
		vi.advanceTimersByTime(20_000);
		const empty = await execution(credentialId, { input: nameless });
		expect(unsent(empty, [])).toBe('Variable first_name is empty for +919900000002 (item 0)');
	});

	it('a minute after it was read, the next execution reads it again', async () => {
		const credentialId = newCredential();
		await execution(credentialId);
		vi.advanceTimersByTime(TEMPLATE_KEPT.ms - 1);
		expect((await execution(credentialId)).templateReads).toEqual([]);
		vi.advanceTimersByTime(1);
		const later = await execution(credentialId, { templates: inStatus('paused') });
		expect(unsent(later, ['wat_welcome'])).toBe(
			'Template "welcome" (wat_welcome) is paused: WhatsApp sends approved templates only',
		);
	});

	it('is kept per credential, API key and Base URL: any other one reads it', async () => {
		const credentialId = newCredential();
		await execution(credentialId);
		expect((await execution(credentialId)).templateReads).toEqual([]);
		expect((await execution(newCredential())).templateReads).toEqual(['wat_welcome']);
		expect((await execution(credentialId, { apiKey: 'another-key' })).templateReads).toEqual([
			'wat_welcome',
		]);
		expect(
			(await execution(credentialId, { baseUrl: 'https://other.peach.test' })).templateReads,
		).toEqual(['wat_welcome']);
	});

	it('a template that is not approved is read again by every execution: one approved meanwhile is sent at once', async () => {
		const credentialId = newCredential();
		const pending = await execution(credentialId, { templates: inStatus('pending') });
		expect(pending.error?.message).toBe(
			'Template "welcome" (wat_welcome) is pending: WhatsApp sends approved templates only',
		);
		const again = await execution(credentialId, { templates: inStatus('pending') });
		expect(again.templateReads).toEqual(['wat_welcome']);
		expect(again.error?.message).toContain('is pending');
		const approvedNow = await execution(credentialId);
		expect(approvedNow.templateReads).toEqual(['wat_welcome']);
		expect(approvedNow.error).toBeUndefined();
		expect(sentTo(approvedNow)).toEqual(['+919900000001']);
	});

	it('Peach refuses a send naming the template: the next execution reads it afresh (and refuses it itself, now paused)', async () => {
		const credentialId = newCredential();
		await execution(credentialId);
		const refused = await execution(credentialId, {
			answer: refusal({ template_message: { whats_app_template_id: ['is paused'] } }),
		});
		expect(refused.templateReads).toEqual([]);
		expect(refused.error?.message).toBe('Template: is paused');
		const next = await execution(credentialId, { templates: inStatus('paused') });
		expect(unsent(next, ['wat_welcome'])).toContain(
			'is paused: WhatsApp sends approved templates only',
		);
	});

	it("a refusal of a template's variable reads it afresh too; one naming only the phone number keeps the copy", async () => {
		const credentialId = newCredential();
		await execution(credentialId);
		const phone = await execution(credentialId, {
			answer: refusal({ contact: { phone_number: ['is blocked'] } }),
		});
		expect(phone.error?.message).toBe('Phone Number: is blocked');
		expect((await execution(credentialId)).templateReads).toEqual([]);
		const variable = await execution(credentialId, {
			answer: refusal({ template_message: { liquid_values: { last_name: ['is missing'] } } }),
		});
		expect(variable.error?.message).toBe('Variables → last_name: is missing');
		// The template now shows {{last_name}}: the next execution reads it and refuses the item.
		const next = await execution(credentialId, {
			templates: { wat_welcome: template('approved', 'Hi {{first_name}} {{last_name}}!') },
		});
		expect(unsent(next, ['wat_welcome'])).toBe(
			'Variable last_name is empty for +919900000001 (item 0)',
		);
	});

	it('a server error (5xx) or a 401 names no template: the copy is kept', async () => {
		const credentialId = newCredential();
		await execution(credentialId);
		await execution(credentialId, { answer: { statusCode: 503, body: 'template service down' } });
		await execution(credentialId, {
			answer: { statusCode: 401, body: { message: 'Unauthorized' } },
		});
		expect((await execution(credentialId)).templateReads).toEqual([]);
	});

	it('Dry Run reads the template afresh; a real run after it is checked against what it read', async () => {
		const credentialId = newCredential();
		await execution(credentialId);
		const changed = { wat_welcome: template('approved', 'Hi {{first_name}}, your {{code}}') };
		const dryRun = await execution(credentialId, {
			templates: changed,
			params: { dryRun: true },
			input: { ...asha },
		});
		expect(dryRun.templateReads).toEqual(['wat_welcome']);
		expect(dryRun.error?.message).toBe('Variable code is empty for +919900000001 (item 0)');
		const real = await execution(credentialId, { templates: changed });
		expect(unsent(real, [])).toBe('Variable code is empty for +919900000001 (item 0)');
	});

	it('a read that fails is not kept: the next execution reads again', async () => {
		const credentialId = newCredential();
		const missing = await runPeach({
			params: { ...send, phoneNumber: asha.phone },
			inputs: [asha],
			credentialId,
			templates: 'responses',
			responses: [{ statusCode: 404, body: { message: 'Not found' } }],
		});
		expect((missing.output as Error).message).toBe('Template "wat_welcome" was not found in Peach');
		const found = await runPeach({
			params: { ...send, phoneNumber: asha.phone },
			inputs: [asha],
			credentialId,
			templates: 'responses',
			responses: [{ statusCode: 200, body: template('approved') }, accepted],
		});
		expect(found.requests.map((request) => `${request.options.method} ${request.url}`)).toEqual([
			'GET https://peach.test/api/v1/whats_app_templates/wat_welcome',
			'POST https://peach.test/api/v1/events',
		]);
	});

	it('Send App Message: a refusal naming its Fallback Template reads it afresh; a message without one reads none', async () => {
		const credentialId = newCredential();
		const app = { ...send, operation: 'sendAppMessage', appId: 'flw_1', useFallbackTemplate: true };
		const run = async (answer: FakeResponse, params: Record<string, unknown> = app) =>
			await runOverInputs(params, [asha], answer, { credentialId, templates: approved });
		const refused = await refusalReadsAfresh(run, {
			flow: { whats_app_template_id: ['is paused'] },
		});
		expect(refused.error?.message).toBe('Fallback Template: is paused');
		const withoutFallback = await run(refusal({ flow: { id: ['is unknown'] } }), {
			...app,
			useFallbackTemplate: false,
		});
		expect(withoutFallback.templateReads).toEqual([]);
		expect(withoutFallback.error?.message).toBe('flow.id: is unknown');
		expect((await run(accepted)).templateReads).toEqual([]);
	});

	it('Broadcast → Launch: a refusal naming the template reads it afresh for the next launch', async () => {
		const credentialId = newCredential();
		const launch = {
			resource: 'broadcast',
			operation: 'launch',
			name: 'Spring',
			templateId: locator('wat_welcome'),
			variablesInput: 'fields',
			variables: { values: [{ key: 'first_name', value: 'friend' }] },
			recipients: 'items',
			deliveryMode: 'instant',
			contactPhoneNumber: '={{ $json.phone }}',
			contactName: '',
			contactVariables: {},
			additionalFields: {},
		};
		const run = async (answer: FakeResponse) =>
			await runOverInputs(launch, [asha], answer, { credentialId, templates: approved });
		const refused = await refusalReadsAfresh(run, {
			broadcast: { whats_app_template_id: ['is paused'] },
		});
		expect(refused.error?.message).toBe('Template: is paused');
	});
});
