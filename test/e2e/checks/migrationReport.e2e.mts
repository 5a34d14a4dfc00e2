/**
 * n8n's own 3.0 migration report (the breaking-changes module n8n 2.x ships: Settings → Migration
 * Report, `GET /rest/breaking-changes/report`) over the example workflows and one workflow holding a
 * Peach node for every operation and a Peach Trigger: none of them may be flagged. What it flags for the
 * instance is printed (docs/compatibility/n8n-3.0.md lists it). n8n 1.x has no such module.
 * With PEACH_E2E_N8N3_DEFAULTS=1 (n8n.mts), also what a 3.0 user without verification meets.
 */
import {
	type Json,
	log,
	N8N_THREE_DEFAULTS,
	N8N_VERSION,
	PACKAGE_NAME,
	peachNode,
} from '../n8n.mts';
import { assert, type Check, type Context } from '../suite.mts';
import { loadExamples } from '../workflows/examples.mts';

interface Property {
	name: string;
	options?: Array<{ value: string }>;
	displayOptions?: { show?: { resource?: string[] } };
}

/** Every resource × operation pair of the Peach node, as the running n8n describes it. */
async function operations(ctx: Context): Promise<Array<{ resource: string; operation: string }>> {
	const peach = (await ctx.client.nodeDescriptions()).find(
		(type) => type.name === `${PACKAGE_NAME}.peach`,
	);
	assert(peach, `n8n describes no ${PACKAGE_NAME}.peach`);
	const pairs: Array<{ resource: string; operation: string }> = [];
	for (const property of peach.properties as Property[]) {
		const resources = property.displayOptions?.show?.resource ?? [];
		if (property.name !== 'operation' || resources.length !== 1) continue;
		// n8n adds a Custom API Call to each resource's operations (an HTTP Request node's job).
		for (const { value } of property.options ?? [])
			if (value !== '__CUSTOM_API_CALL__') pairs.push({ resource: resources[0], operation: value });
	}
	return pairs;
}

async function everyOperationWorkflow(ctx: Context) {
	const nodes: Json[] = (await operations(ctx)).map(({ resource, operation }, index) => ({
		...peachNode({ resource, operation }, ctx.credential, `${resource} ${operation}`),
		position: [300 * (index % 7), 200 * Math.floor(index / 7)],
	}));
	nodes.push({
		id: 'trigger',
		name: 'Peach Trigger',
		type: `${PACKAGE_NAME}.peachTrigger`,
		typeVersion: 1,
		position: [0, -200],
		webhookId: 'every-operation-trigger',
		parameters: {},
	});
	return { name: 'Every Peach operation (migration report)', nodes, connections: {} };
}

interface RuleResult {
	ruleId: string;
	ruleTitle: string;
	ruleSeverity?: string;
	nbAffectedWorkflows?: number;
}

export const migrationReportChecks: Check[] = N8N_VERSION.startsWith('1.')
	? []
	: [
			{
				name: "n8n's 3.0 migration report flags none of the examples nor a workflow of every Peach operation",
				fn: async (ctx) => {
					const ours = new Map<string, string>();
					const every = await everyOperationWorkflow(ctx);
					assert(
						every.nodes.length === 50,
						`49 operations and a trigger, got ${every.nodes.length} nodes`,
					);
					ours.set(await ctx.client.createWorkflow(every), every.name);
					const secret = await ctx.client.createCredential(
						'Migration report secret',
						'peachWebhookApi',
						{
							secret: 'migration-report-secret',
						},
					);
					const credentials = { peachMessagingApi: ctx.credential, peachWebhookApi: secret };
					for (const example of loadExamples(credentials, ctx.sandbox.url)) {
						ours.set(await ctx.client.createWorkflow(example.workflow), example.file);
					}
					const refreshed = await ctx.client.rest(
						'POST',
						'/breaking-changes/report/refresh?version=v3',
						undefined,
						120_000,
					);
					const report = refreshed.report as {
						instanceResults: RuleResult[];
						workflowResults: RuleResult[];
					};
					assert(
						Array.isArray(report?.instanceResults) && Array.isArray(report?.workflowResults),
						`n8n's report has another shape: ${JSON.stringify(refreshed).slice(0, 300)}`,
					);
					for (const rule of report.instanceResults) {
						log(
							`    migration report, instance: ${rule.ruleId} (${rule.ruleSeverity}): ${rule.ruleTitle}`,
						);
					}
					const flagged: string[] = [];
					for (const rule of report.workflowResults) {
						const detail = await ctx.client.rest('GET', `/breaking-changes/report/${rule.ruleId}`);
						const affected = (detail.affectedWorkflows ?? []) as Array<{ id: string }>;
						const mine = affected.filter((workflow) => ours.has(workflow.id));
						log(
							`    migration report, workflows: ${rule.ruleId}: ${affected.length} flagged, ${mine.length} of ours`,
						);
						for (const workflow of mine)
							flagged.push(`${ours.get(workflow.id)}: ${rule.ruleId} (${rule.ruleTitle})`);
					}
					assert(flagged.length === 0, `the migration report flags: ${flagged.join('; ')}`);
					log(`    migration report: ${ours.size} workflows of ours, none flagged`);
				},
			},
		];

/** Only with PEACH_E2E_N8N3_DEFAULTS=1: the install a 3.0 user would try, refused for want of verification. */
export const n8nThreeDefaultsChecks: Check[] = N8N_THREE_DEFAULTS
	? [
			{
				name: 'with 3.0 defaults, n8n refuses to install the unverified package from the editor',
				fn: async (ctx) => {
					const refused = await ctx.client
						.rest('POST', '/community-packages', { name: PACKAGE_NAME })
						.then(
							() => undefined,
							(error: Error) => error.message,
						);
					assert(
						refused?.includes('unverified community packages is forbidden'),
						`the install was not refused for want of verification: ${refused ?? 'it was accepted'}`,
					);
					log(`    3.0 defaults: ${refused}`);
				},
			},
		]
	: [];
