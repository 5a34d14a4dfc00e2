/**
 * n8n's verification guidelines for community nodes, each rule as a check on this repository (what a
 * check cannot decide is listed as "by hand" with its state). Run by `npm run scan` after n8n's own
 * scanner; docs/verification.md lists the same rules with what enforces each (checked here too).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const pkg = JSON.parse(read('package.json')) as Record<string, unknown> & {
	n8n: { nodes: string[]; credentials: string[] };
};

/** Every file of a folder, recursively. */
function filesOf(folder: string): string[] {
	return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name).slice(root.length + 1));
}

type Result = { state: 'pass' | 'fail' | 'by hand'; detail: string };
const rules: Array<{ rule: string; check: () => Result }> = [
	{
		rule: 'Package name n8n-nodes-*, keyword n8n-community-node-package',
		check: () =>
			/^(@[\w-]+\/)?n8n-nodes-[\w-]+$/.test(String(pkg.name)) &&
			(pkg.keywords as string[]).includes('n8n-community-node-package')
				? { state: 'pass', detail: String(pkg.name) }
				: { state: 'fail', detail: `name ${String(pkg.name)}, keywords ${String(pkg.keywords)}` },
	},
	{
		rule: "Built with n8n's n8n-node tool (@n8n/node-cli, strict mode)",
		check: () => {
			const devDependencies = (pkg.devDependencies ?? {}) as Record<string, string>;
			const scripts = (pkg.scripts ?? {}) as Record<string, string>;
			const n8n = pkg.n8n as { strict?: boolean };
			return devDependencies['@n8n/node-cli'] &&
				n8n.strict === true &&
				/(^|&& )n8n-node lint( |$)/.test(scripts.lint ?? '')
				? {
						state: 'pass',
						detail: `@n8n/node-cli ${devDependencies['@n8n/node-cli']}, strict, n8n-node lint; the build (tsc + gulp): by hand`,
					}
				: { state: 'fail', detail: 'needs @n8n/node-cli, n8n.strict and n8n-node lint' };
		},
	},
	{
		rule: 'MIT license',
		check: () =>
			pkg.license === 'MIT' && read('LICENSE.md').startsWith('MIT License')
				? { state: 'pass', detail: 'package.json and LICENSE.md' }
				: { state: 'fail', detail: `license ${String(pkg.license)}` },
	},
	{
		rule: 'Repository URL is the public GitHub repository',
		check: () => {
			const url = String((pkg.repository as { url?: string })?.url ?? '');
			return /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/.test(url)
				? { state: 'pass', detail: url }
				: { state: 'fail', detail: url || 'no repository' };
		},
	},
	{
		rule: 'Author with name and e-mail (the same as on npm and GitHub)',
		check: () => {
			const author = pkg.author as { name?: string; email?: string } | undefined;
			return author?.name && author.email
				? {
						state: 'pass',
						detail: `${author.name} <${author.email}>; npm and GitHub match: by hand at publishing`,
					}
				: { state: 'fail', detail: 'author needs a name and an e-mail' };
		},
	},
	{
		rule: 'No runtime dependencies',
		check: () =>
			Object.keys((pkg.dependencies as object | undefined) ?? {}).length === 0
				? { state: 'pass', detail: 'dependencies is empty; n8n-workflow is a peer' }
				: { state: 'fail', detail: Object.keys(pkg.dependencies as object).join(', ') },
	},
	{
		rule: 'Published from a GitHub Action with npm provenance',
		check: () => {
			const workflow = existsSync(join(root, '.github/workflows/publish.yml'))
				? read('.github/workflows/publish.yml')
				: '';
			const provenance = (pkg.publishConfig as { provenance?: boolean } | undefined)?.provenance;
			return /id-token:\s*write/.test(workflow) &&
				/n8n-node release|npm publish[^\n]*--provenance/.test(workflow) &&
				provenance === true
				? {
						state: 'pass',
						detail:
							'.github/workflows/publish.yml (id-token: write, n8n-node release), publishConfig.provenance',
					}
				: { state: 'fail', detail: 'no publish workflow with provenance' };
		},
	},
	{
		rule: 'No environment variables or file system in node code',
		check: () => {
			const found = ['nodes', 'credentials']
				.flatMap(filesOf)
				.filter((file) => file.endsWith('.ts'))
				.filter((file) =>
					/\bprocess\.|from ['"](node:)?(fs|fs\/promises|child_process|os)['"]|require\(['"](node:)?fs/.test(
						read(file),
					),
				);
			return found.length === 0
				? {
						state: 'pass',
						detail: 'no process.*, fs, os or child_process in nodes/ and credentials/',
					}
				: { state: 'fail', detail: found.join(', ') };
		},
	},
	{
		rule: 'Every node and credential registered in package.json, built under dist/',
		check: () => {
			const sources = ['nodes', 'credentials']
				.flatMap(filesOf)
				.filter((file) => /\.(node|credentials)\.ts$/.test(file))
				.map((file) => `dist/${file.replace(/\.ts$/, '.js')}`)
				.sort();
			const listed = [...pkg.n8n.nodes, ...pkg.n8n.credentials].sort();
			return JSON.stringify(sources) === JSON.stringify(listed)
				? { state: 'pass', detail: `${listed.length} entries` }
				: { state: 'fail', detail: `sources ${sources.join(', ')}; listed ${listed.join(', ')}` };
		},
	},
	{
		rule: 'One third-party service (Peach) per package',
		check: () => {
			const names = [...pkg.n8n.nodes, ...pkg.n8n.credentials].map((path) => path.split('/').pop());
			return names.every((name) => name?.startsWith('Peach'))
				? { state: 'pass', detail: names.join(', ') }
				: { state: 'fail', detail: names.join(', ') };
		},
	},
	{
		rule: 'README with usage, example workflows and authentication',
		check: () => {
			const readme = read('README.md');
			const missing = ['## Installation', '## Credentials', '## Usage', 'examples/'].filter(
				(part) => !readme.includes(part),
			);
			return missing.length === 0
				? { state: 'pass', detail: 'Installation, Credentials, Usage, examples/' }
				: { state: 'fail', detail: `missing ${missing.join(', ')}` };
		},
	},
	{
		rule: 'English only (UI, errors, README)',
		check: () => {
			// Letters beyond Latin (another script) in node code: a heuristic for another language.
			const found = ['nodes', 'credentials']
				.flatMap(filesOf)
				.filter((file) => file.endsWith('.ts') && /[\u0370-\u1fff\u3000-\uffef]/.test(read(file)));
			return found.length === 0
				? {
						state: 'pass',
						detail: 'no letters of another script in nodes/ and credentials/; the wording: by hand',
					}
				: { state: 'fail', detail: found.join(', ') };
		},
	},
	{
		rule: "Lint (n8n-node lint) and n8n's scanner pass, with no eslint-disable",
		check: () => {
			const disabled = ['nodes', 'credentials', 'test']
				.flatMap(filesOf)
				.filter(
					(file) => /\.(m?ts|m?js)$/.test(file) && /(\/\/|\/\*)\s*eslint-disable/.test(read(file)),
				);
			return disabled.length === 0
				? { state: 'pass', detail: 'npm run lint and the scan above; no eslint-disable anywhere' }
				: { state: 'fail', detail: disabled.join(', ') };
		},
	},
	{
		rule: "TypeScript, n8n's node guidelines, error handling and validation",
		check: () => {
			const javascript = ['nodes', 'credentials']
				.flatMap(filesOf)
				.filter((file) => /\.(c|m)?js$/.test(file));
			const strict = (
				JSON.parse(read('tsconfig.json')) as { compilerOptions: { strict?: boolean } }
			).compilerOptions.strict;
			return javascript.length === 0 && strict === true
				? {
						state: 'pass',
						detail:
							'TypeScript only (strict); npm run lint, typecheck and the unit tests; UX: by hand',
					}
				: {
						state: 'fail',
						detail: `JavaScript sources ${javascript.join(', ')}, strict ${strict}`,
					};
		},
	},
	{
		rule: 'Not a Logic or Flow control node',
		check: () => {
			const categories = pkg.n8n.nodes.flatMap(
				(path) =>
					(
						JSON.parse(read(path.replace(/^dist\//, '').replace(/\.js$/, '.json'))) as {
							categories: string[];
						}
					).categories,
			);
			return categories.some((category) => /core nodes|flow/i.test(category))
				? { state: 'fail', detail: categories.join(', ') }
				: { state: 'pass', detail: `codex categories ${[...new Set(categories)].join(', ')}` };
		},
	},
	{
		rule: 'Does not duplicate an existing n8n node',
		check: () => ({ state: 'by hand', detail: 'n8n has no Peach node (checked 2026-11-25)' }),
	},
	{
		rule: 'Submitted through the n8n Creator Portal',
		check: () => ({
			state: 'by hand',
			detail: 'not yet: once 1.0.0 is on npm with provenance (docs/verification.md, Releasing)',
		}),
	},
];

const listing = read('docs/verification.md');
let failed = 0;
console.log('verification guidelines:');
for (const { rule, check } of rules) {
	const { state, detail } = check();
	const listed = listing.includes(`| ${rule} |`);
	if (state === 'fail' || !listed) failed++;
	console.log(
		`  ${state === 'pass' ? 'pass   ' : state === 'fail' ? 'FAIL   ' : 'by hand'}  ${rule}: ${detail}${listed ? '' : ' (NOT in the table of docs/verification.md)'}`,
	);
}
process.exit(failed ? 1 : 0);
