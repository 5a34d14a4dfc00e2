/**
 * The package's layering, checked by `npm run lint` (dependency-cruiser). Lower layers never import
 * upper ones; there are no import circles; the sandbox and the e2e suite never use the node's code.
 *
 *   Peach.node.ts → actions/router → actions/run (per item, batch, delivering; the delivery record)
 *     and actions/registry → actions/<resource>/<op>.operation
 *     → what operations share: actions/templateSend (every template sender: the template check,
 *       Header Media) → actions/item (an item's parameters) · actions/operation (the operation
 *       contract, every Get Many)
 *     → descriptions (fields, locators) · api (shared Peach requests) · methods/listSearch
 *     → transport → helpers
 *   credentials ← transport (Base URL rule)            PeachTrigger → Peach/helpers only
 */
const PEACH = '^nodes/Peach';
/** The folders of actions/ that are no resource: how operations run, and what their operations share. */
const RUN = `${PEACH}/actions/run/`;
const SHARED = `${PEACH}/actions/(item|operation|templateSend)/`;
module.exports = {
	forbidden: [
		{
			name: 'no-circular',
			severity: 'error',
			comment: 'An import circle makes load order matter and layers meaningless.',
			from: {},
			to: { circular: true },
		},
		{
			name: 'helpers-are-the-bottom',
			severity: 'error',
			comment: 'helpers/ are pure and depend on nothing of the node above them.',
			from: { path: `${PEACH}/helpers/` },
			to: {
				path: [
					`${PEACH}/(actions|descriptions|methods|transport)/`,
					`${PEACH}/Peach\\.node`,
					'^nodes/PeachTrigger',
					'^credentials',
				],
			},
		},
		{
			name: 'transport-below-the-node',
			severity: 'error',
			comment: 'transport/ talks HTTP; it knows no operation, description or list search.',
			from: { path: `${PEACH}/transport/` },
			to: { path: [`${PEACH}/(actions|descriptions|methods)/`, `${PEACH}/Peach\\.node`] },
		},
		{
			name: 'descriptions-are-data',
			severity: 'error',
			comment: 'descriptions/ build editor fields; they call no API and know no operation.',
			from: { path: `${PEACH}/descriptions/` },
			to: { path: [`${PEACH}/(actions|methods|transport)/`, `${PEACH}/Peach\\.node`] },
		},
		{
			name: 'api-below-actions',
			severity: 'error',
			comment:
				'api/ holds Peach requests several operations make (a template read, a direct upload); it knows no operation, description or list search.',
			from: { path: `${PEACH}/api/` },
			to: { path: [`${PEACH}/(actions|descriptions|methods)/`, `${PEACH}/Peach\\.node`] },
		},
		{
			name: 'list-searches-below-actions',
			severity: 'error',
			from: { path: `${PEACH}/methods/` },
			to: { path: [`${PEACH}/actions/`, `${PEACH}/Peach\\.node`] },
		},
		{
			name: 'operations-do-not-know-the-router',
			severity: 'error',
			comment: 'An operation is reached through the registry; it never imports it or the router.',
			from: { path: `${PEACH}/actions/[^/]+/` },
			to: { path: `${PEACH}/actions/(router|registry)\\.ts$` },
		},
		{
			name: 'operations-do-not-import-operations',
			severity: 'error',
			comment:
				"What a resource's operations share lives in its shared.ts; an operation never imports a sibling operation.",
			from: { path: `${PEACH}/actions/[^/]+/[^/]+\\.operation\\.ts$` },
			to: { path: `${PEACH}/actions/[^/]+/[^/]+\\.operation\\.ts$` },
		},
		{
			name: 'only-the-delivering-run-issues-delivery-permits',
			severity: 'error',
			comment:
				'A delivering request needs a DeliveryPermit; only the delivering run (actions/run/delivering.ts), after checking every item, creates one (the others name its type only).',
			from: {
				path: '^nodes/',
				pathNot: [
					`${PEACH}/actions/run/delivering\\.ts$`,
					`${PEACH}/actions/operation/node\\.type\\.ts$`,
					`${PEACH}/transport/types\\.ts$`,
				],
			},
			to: { path: `${PEACH}/transport/permit\\.ts$` },
		},
		{
			name: 'only-the-delivering-run-keeps-the-delivery-record',
			severity: 'error',
			comment:
				"What a delivering operation already did (for n8n's retries) is recorded by the delivering run alone: an operation cannot skip or forge that record.",
			from: {
				path: '^nodes/',
				pathNot: [`${PEACH}/actions/run/delivering\\.ts$`, `${PEACH}/actions/run/record/`],
			},
			to: { path: `${PEACH}/actions/run/record/` },
		},
		{
			name: 'resources-are-independent',
			severity: 'error',
			comment:
				'A resource folder imports no other resource folder, nor the runs: what resources share lives in the shared folders of actions/ (item, operation, templateSend) or below.',
			from: { path: `${PEACH}/actions/([^/]+)/`, pathNot: [RUN, SHARED] },
			to: { path: `${PEACH}/actions/[^/]+/`, pathNot: [`${PEACH}/actions/$1/`, SHARED] },
		},
		{
			name: 'runs-and-shared-parts-know-no-resource',
			severity: 'error',
			comment:
				'The runs and what operations share serve every resource: they never import a resource folder.',
			from: { path: [RUN, SHARED] },
			to: { path: `${PEACH}/actions/[^/]+/`, pathNot: [RUN, SHARED] },
		},
		{
			name: 'trigger-uses-only-peach-helpers',
			severity: 'error',
			from: { path: '^nodes/PeachTrigger/' },
			to: { path: `${PEACH}/`, pathNot: `${PEACH}/helpers/` },
		},
		{
			name: 'action-node-does-not-use-the-trigger',
			severity: 'error',
			from: { path: `${PEACH}/` },
			to: { path: '^nodes/PeachTrigger/' },
		},
		{
			name: 'credentials-are-standalone',
			severity: 'error',
			from: { path: '^credentials/' },
			to: { path: '^(nodes|test)/' },
		},
		{
			name: 'shipped-code-never-imports-tests',
			severity: 'error',
			from: { path: '^(nodes|credentials)/' },
			to: { path: '^test/' },
		},
		{
			name: 'sandbox-is-an-independent-reading',
			severity: 'error',
			comment: "The sandbox models Peach from its documentation; it must not use the node's code.",
			from: { path: '^test/sandbox/' },
			to: { path: '^(nodes|credentials)/' },
		},
		{
			name: 'e2e-drives-n8n-not-the-code',
			severity: 'error',
			comment: 'The real-n8n suite uses the packed package inside n8n, never the sources.',
			from: { path: '^test/e2e/' },
			to: { path: '^(nodes|credentials)/' },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '^(dist|node_modules)/' },
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.test.json' },
		enhancedResolveOptions: {
			extensions: ['.ts', '.mts', '.js', '.mjs', '.json'],
		},
	},
};
