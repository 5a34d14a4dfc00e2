/**
 * npm run test:queue runs with OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS=true, as n8n 3.0 does by default:
 * a run started from the editor (Execute workflow) goes to a worker. There a Dry Run sends nothing, a
 * Send sends each message once, and a Send and Wait waits, is answered and finishes on a worker.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

import {
	chain,
	codeNode,
	type Json,
	log,
	nodeOutput,
	peachNode,
	sendParameters,
} from '../e2e/n8n.mts';
import { waitForStatus } from '../e2e/checks/sendAndWait.e2e.mts';
import { assert, assertEqual } from '../e2e/suite.mts';
import { queuedPerPhone, type RecoveryContext } from './recovery.mts';

export const manualOnWorkerChecks = [
	{
		name: 'a run from the editor goes to a worker: Dry Run sends nothing, Send once, Send and Wait resumes',
		fn: async (q: RecoveryContext) => {
			const prefix = `+9198${String(Date.now()).slice(-5)}`;
			const phones = [`${prefix}01`, `${prefix}02`];
			const approver = `${prefix}09`;
			const nodes = [
				{
					id: randomUUID(),
					name: 'Execute workflow',
					type: 'n8n-nodes-base.manualTrigger',
					typeVersion: 1,
					position: [0, 0],
					parameters: {},
				},
				codeNode(
					`return ${JSON.stringify(phones.map((phone) => ({ json: { phone } })))};`,
					'Contacts',
				),
				peachNode({ ...sendParameters(), dryRun: true }, q.credential, 'Preview'),
				// Dry Run's items are previews: the contacts' phones are read from Contacts.
				peachNode(
					sendParameters(undefined, undefined, {
						phoneNumber: "={{ $('Contacts').item.json.phone }}",
					}),
					q.credential,
					'Send',
				),
				{
					...peachNode(
						{
							resource: 'templateMessage',
							operation: 'sendAndWait',
							phoneNumber: approver,
							templateId: { __rl: true, mode: 'id', value: 'wat_approval' },
							message: 'Were both welcomes right?',
							variablesInput: 'fields',
						},
						q.credential,
						'Ask',
					),
					executeOnce: true,
				},
			];
			const workflowId = await q.client.createWorkflow({
				name: `queue manual ${randomUUID().slice(0, 8)}`,
				nodes,
				connections: chain('Execute workflow', 'Contacts', 'Preview', 'Send', 'Ask'),
			});
			await q.client.runManually(workflowId, 'Execute workflow');
			const waiting = await waitForStatus(q, workflowId, ['waiting', 'error', 'success'], 120_000);
			assertEqual(waiting.status, 'waiting', 'the manual run, before the answer');
			const answer = await q.sandbox.phone.answer(approver, { choice: 'Approve' });
			assertEqual(answer.status, 200, 'the answer on the phone');
			const done = await waitForStatus(q, workflowId, ['success', 'error'], 120_000);
			// "execution 1" must not match "execution 12".
			const named = new RegExp(`execution ${String(done.id)}(?!\\d)`);
			const runBy = q.workers.filter((worker) => named.test(readFileSync(worker.logFile, 'utf8')));
			log(
				`      manual execution ${String(done.id)}: ${String(done.status)}, run by ${runBy.length} worker(s)`,
			);
			assertEqual(done.status, 'success', 'the manual run, after the answer');
			assert(runBy.length > 0, 'no worker log names the manual execution: it ran on main');
			assertEqual(
				nodeOutput(done, 'Preview').map((item) => (item as { dryRun?: unknown }).dryRun),
				[true, true],
				'Dry Run outputs',
			);
			assertEqual([...queuedPerPhone(q, phones).values()], [1, 1], 'messages per contact');
			assertEqual(
				((nodeOutput(done, 'Ask')[0]?.data as Json) ?? {}).approved,
				true,
				'the answer in the output',
			);
		},
	},
];
