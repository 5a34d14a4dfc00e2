/**
 * Hostile and duplicate deliveries to a published Peach Trigger (version 2, secret in a credential):
 * generated bad requests must start nothing and leave n8n healthy; copies of one delivery must start one
 * execution. The counts are printed for the closing note and README.
 */
import { randomUUID } from 'node:crypto';

import fc from 'fast-check';

import { log, N8N_VERSION } from '../n8n.mts';
import { assert, assertEqual, type Check, type Context, pool, postDelivery } from '../suite.mts';
import { publishTrigger } from './peachTrigger.e2e.mts';

interface Delivery {
	label: string;
	query: string;
	headers: Record<string, string>;
	body: string;
}

const post = (url: string, delivery: Delivery) =>
	postDelivery(`${url}${delivery.query}`, delivery.body, delivery.headers);

/** A credential-backed version 2 trigger; `parameters` on top of its defaults. */
async function publishV2(ctx: Context, parameters: Record<string, unknown> = {}) {
	const secret = `hostile-${randomUUID()}`;
	const credential = await ctx.client.createCredential(
		`Peach webhook secret ${secret.slice(-6)}`,
		'peachWebhookApi',
		{ secret },
	);
	const trigger = await publishTrigger(ctx, parameters, {
		credentials: { peachWebhookApi: { id: credential.id, name: credential.name } },
	});
	return { ...trigger, secret };
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const valid = (id: string) =>
	JSON.stringify({ type: 'order.completed', data: { id, status: 'completed' } });

/** ≥ 1,000 bad requests, generated from fixed seeds so a failure can be replayed. */
function hostileDeliveries(secret: string): Delivery[] {
	const sample = <T,>(arbitrary: fc.Arbitrary<T>, count: number, seed: number) =>
		fc.sample(arbitrary, { numRuns: count, seed });
	const withSecret = (label: string, body: string, headers = JSON_TYPE): Delivery => ({
		label,
		query: `?token=${encodeURIComponent(secret)}`,
		headers,
		body,
	});
	const deliveries: Delivery[] = [];
	for (const token of sample(fc.string({ minLength: 0, maxLength: 80 }), 150, 1)) {
		deliveries.push({
			label: 'wrong secret',
			query: `?token=${encodeURIComponent(token)}`,
			headers: JSON_TYPE,
			body: valid('wa_ord_forged'),
		});
	}
	for (let i = 0; i < 50; i++) {
		deliveries.push({
			label: 'missing secret',
			query: '',
			headers: JSON_TYPE,
			body: valid(`f${i}`),
		});
		deliveries.push({
			label: 'secret in a header instead of the query',
			query: '',
			headers: { ...JSON_TYPE, 'X-Peach-Token': secret },
			body: valid(`h${i}`),
		});
		deliveries.push({
			label: 'secret with a suffix',
			query: `?token=${encodeURIComponent(`${secret}${i}`)}`,
			headers: JSON_TYPE,
			body: valid(`s${i}`),
		});
	}
	const notJson = fc.string({ minLength: 1, maxLength: 200 }).filter((text) => {
		try {
			JSON.parse(text);
			return false;
		} catch {
			return true;
		}
	});
	for (const text of sample(notJson, 150, 2)) deliveries.push(withSecret('not JSON', text));
	const notObject = fc.oneof(
		fc.array(fc.jsonValue(), { maxLength: 5 }),
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.string(),
		fc.boolean(),
		fc.constant(null),
	);
	for (const value of sample(notObject, 150, 3)) {
		deliveries.push(withSecret('not an object', JSON.stringify(value)));
	}
	const noStringType = fc
		.dictionary(
			fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'prototype', 'data')),
			fc.jsonValue({ maxDepth: 3 }),
			{ maxKeys: 6 },
		)
		.chain((object) =>
			fc.oneof(
				fc.constant(object),
				fc
					.oneof(
						fc.integer(),
						fc.constant(null),
						fc.array(fc.string()),
						fc.constant(''),
						fc.constant('  '),
					)
					.map((type) => ({ ...object, type })),
			),
		)
		.filter(
			(object) =>
				typeof (object as { type?: unknown }).type !== 'string' ||
				!(object as { type: string }).type.trim(),
		);
	for (const value of sample(noStringType, 150, 4)) {
		deliveries.push(withSecret('no string type', JSON.stringify(value)));
	}
	const prototypeBodies = [
		'{"__proto__":{"type":"order.completed","data":{}}}',
		'{"constructor":{"prototype":{"type":"order.completed"}}}',
		'{"data":{"__proto__":{"type":"order.completed"}}}',
		'{"__proto__":{"polluted":true},"data":{}}',
		'{"type":{"__proto__":"order.completed"},"data":{}}',
		'{"type":["order.completed"],"data":{}}',
		'{"prototype":{"type":"order.completed"},"data":{}}',
		'{"toString":"order.completed","valueOf":1}',
		'{"type":"order.completed","data":[{"__proto__":{"x":1}}]}',
		'{"type":"order.completed","data":"__proto__"}',
	];
	for (let i = 0; i < 100; i++) {
		deliveries.push(withSecret('prototype keys', prototypeBodies[i % prototypeBodies.length]));
	}
	for (const depth of sample(fc.integer({ min: 65, max: 5000 }), 50, 5)) {
		deliveries.push(
			withSecret(
				'nested too deep',
				`{"type":"order.completed","data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
			),
		);
	}
	for (const length of sample(fc.integer({ min: 201, max: 100_000 }), 50, 6)) {
		deliveries.push(
			withSecret('type too long', JSON.stringify({ type: 'x'.repeat(length), data: {} })),
		);
	}
	for (const data of sample(
		fc.oneof(fc.array(fc.integer()), fc.string(), fc.integer(), fc.boolean()),
		50,
		7,
	)) {
		deliveries.push(
			withSecret('data not an object', JSON.stringify({ type: 'order.completed', data })),
		);
	}
	for (const megabytes of sample(fc.double({ min: 1.01, max: 4, noNaN: true }), 20, 8)) {
		const blob = 'x'.repeat(Math.round(megabytes * 1024 * 1024));
		deliveries.push(
			withSecret('over 1 MB', JSON.stringify({ type: 'order.completed', data: { blob } })),
		);
	}
	const wrongTypes: Array<[string, string]> = [
		['text/plain', 'order.completed'],
		['application/x-www-form-urlencoded', 'type=order.completed&data=x'],
		['application/x-www-form-urlencoded', 'type=order.completed'],
		['application/xml', '<type>order.completed</type>'],
		[
			'multipart/form-data; boundary=x',
			'--x\r\nContent-Disposition: form-data; name="type"\r\n\r\norder.completed\r\n--x--',
		],
	];
	for (let i = 0; i < 50; i++) {
		const [type, body] = wrongTypes[i % wrongTypes.length];
		deliveries.push(
			withSecret(`wrong content type ${type.split(';')[0]}`, body, { 'Content-Type': type }),
		);
	}
	return deliveries;
}

export const hostileChecks: Check[] = [
	{
		name: 'trigger v2 hostile deliveries: ≥ 1,000 generated bad requests start 0 executions; n8n stays healthy',
		fn: async (ctx) => {
			const trigger = await publishV2(ctx);
			const deliveries = hostileDeliveries(trigger.secret);
			// Past n8n's own body limit (N8N_PAYLOAD_SIZE_MAX, 16 MB by default): n8n answers before the node runs.
			deliveries.push({
				label: "over n8n's 16 MB limit, with the secret",
				query: `?token=${trigger.secret}`,
				headers: JSON_TYPE,
				body: ' '.repeat(20 * 1024 * 1024),
			});
			deliveries.push({
				label: "over n8n's 16 MB limit, without the secret",
				query: '',
				headers: JSON_TYPE,
				body: ' '.repeat(20 * 1024 * 1024),
			});
			const began = Date.now();
			const answers = await pool(
				10,
				deliveries.map((delivery) => () => post(trigger.url, delivery)),
			);
			const seconds = (Date.now() - began) / 1000;
			const byLabel = new Map<string, Map<number, number>>();
			answers.forEach((answer, index) => {
				const statuses = byLabel.get(deliveries[index].label) ?? new Map<number, number>();
				statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
				byLabel.set(deliveries[index].label, statuses);
			});
			for (const [label, statuses] of byLabel) {
				log(`      ${label}: ${[...statuses].map(([status, n]) => `${n}× ${status}`).join(', ')}`);
			}
			const accepted = answers.filter((answer) => answer.status >= 200 && answer.status < 300);
			assertEqual(accepted.length, 0, 'hostile requests answered 2xx');
			const unanswered = answers.filter((answer) => answer.status === 0);
			assertEqual(unanswered.length, 0, 'requests without an answer');
			await new Promise((resolve) => setTimeout(resolve, 2000));
			const executions = await ctx.client.executionCount(trigger.workflowId);
			const health = await fetch(`${ctx.n8n.url}/healthz`);
			log(
				`      ${deliveries.length} hostile requests in ${seconds.toFixed(1)} s at concurrency 10 → ${executions} executions; /healthz ${health.status}`,
			);
			assertEqual(executions, 0, 'executions started by hostile requests');
			assertEqual(health.status, 200, 'n8n health after the hostile requests');
			assert(deliveries.length >= 1000, `only ${deliveries.length} hostile requests`);
			// Still live and still accepting the real thing.
			const real = await post(trigger.url, {
				label: 'valid',
				query: `?token=${trigger.secret}`,
				headers: JSON_TYPE,
				body: valid('wa_ord_real'),
			});
			assertEqual(real.status, 200, 'a valid delivery after the hostile ones');
			await ctx.client.waitForExecutions(trigger.workflowId, 1);
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
	{
		name: 'trigger v2 Ignore Duplicates: 100 deliveries sent 11 times each at concurrency 10 start 100 executions',
		fn: async (ctx) => {
			const trigger = await publishV2(ctx);
			const distinct = Array.from({ length: 100 }, (_, i) =>
				JSON.stringify({
					type: 'message_delivery.sent',
					data: {
						message: { id: `cmsg_dup_${i}`, status: 'delivered', type: 'template_message' },
						contact: { phone_number: '+919988776655' },
						event: null,
					},
				}),
			);
			// Every copy, in a shuffled (seeded) order, so copies of one delivery arrive together and apart.
			const copies = fc.sample(
				fc.shuffledSubarray(
					distinct.flatMap((body) => Array.from({ length: 11 }, () => body)),
					{ minLength: 1100, maxLength: 1100 },
				),
				{ numRuns: 1, seed: 11 },
			)[0];
			const answers = await pool(
				10,
				copies.map(
					(body) => () =>
						post(trigger.url, {
							label: 'copy',
							query: `?token=${trigger.secret}`,
							headers: JSON_TYPE,
							body,
						}),
				),
			);
			assertEqual(
				answers.filter((answer) => answer.status !== 200).length,
				0,
				'copies not answered 200',
			);
			const ignored = answers.filter((answer) => answer.text.includes('duplicate')).length;
			await ctx.client.waitForExecutions(trigger.workflowId, 100, 60_000);
			await new Promise((resolve) => setTimeout(resolve, 2000));
			const executions = await ctx.client.executionCount(trigger.workflowId);
			const workflow = await ctx.client.api('GET', `/workflows/${trigger.workflowId}`);
			const staticData = (workflow.staticData ?? {}) as Record<string, { seenDeliveries?: object }>;
			const persisted = Object.keys(staticData['node:Peach Trigger']?.seenDeliveries ?? {}).length;
			log(
				`      1,100 posts (100 deliveries × 11, 1,000 duplicates) at concurrency 10 → ${executions} executions, ${ignored} answered as duplicates; ${persisted} identities in the workflow's static data`,
			);
			assertEqual(executions, 100, 'executions');
			assertEqual(ignored, 1000, 'duplicates answered as ignored');
			if (N8N_VERSION.startsWith('1.')) {
				// n8n 1.x answers first and saves the static data before it runs the workflow: saved whole,
				// last writer wins, so the last save holds (nearly) every identity marked before it.
				assert(persisted >= 95, `only ${persisted} of 100 identities saved in the static data`);
			} else {
				// n8n 2.x answers only once it has stored the execution (so no answered delivery is lost),
				// and on that path it does not save a trigger's static data (docs/trigger.md, Ignore Duplicates).
				assertEqual(
					persisted,
					0,
					'identities saved by n8n 2.x (if n8n now saves them, docs/trigger.md can say so)',
				);
			}
			await ctx.client.deactivate(trigger.workflowId);
		},
	},
];
