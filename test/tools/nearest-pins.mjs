#!/usr/bin/env node
// Which exact `@n8n/*`, `@n8n_io/*` and `n8n-*` versions an n8n release pins (directly or through its
// own n8n packages) are missing from the registry this machine reaches, and the nearest published
// version below each (same major.minor first). Writes test/e2e/n8n-pins/<version>.json, which
// test/e2e/provision-n8n.sh turns into npm overrides, and prints what it overrode.
//   node test/tools/nearest-pins.mjs 2.41.3
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const release = process.argv[2];
if (!/^\d+\.\d+\.\d+$/.test(release ?? '')) {
	console.error('usage: node test/tools/nearest-pins.mjs <n8n version, e.g. 2.41.3>');
	process.exit(2);
}

const answers = new Map();
function view(spec, field) {
	const key = `${spec} ${field}`;
	if (!answers.has(key)) {
		let value = null;
		try {
			const out = execFileSync('npm', ['view', spec, field, '--json'], {
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore'],
			});
			value = out.trim() ? JSON.parse(out) : null;
		} catch {
			value = null;
		}
		answers.set(key, value);
	}
	return answers.get(key);
}

const isN8nPackage = (name) =>
	name === 'n8n' || name.startsWith('@n8n/') || name.startsWith('@n8n_io/') || name.startsWith('n8n-');
const exact = (version) => /^\d+\.\d+\.\d+$/.test(version);
const parts = (version) => version.split('.').map(Number);
const below = (a, b) => {
	const [x, y] = [parts(a), parts(b)];
	for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
	return false;
};
const ascending = (a, b) => (below(a, b) ? -1 : below(b, a) ? 1 : 0);

function nearest(name, pinned) {
	const published = [view(name, 'versions') ?? []].flat().filter(exact);
	if (published.includes(pinned)) return pinned;
	const [major, minor] = parts(pinned);
	const lower = published.filter((v) => below(v, pinned)).sort(ascending);
	const sameMinor = lower.filter((v) => parts(v)[0] === major && parts(v)[1] === minor);
	return sameMinor.at(-1) ?? lower.at(-1);
}

const pins = {};
const seen = new Set();
const queue = [['n8n', release]];
while (queue.length > 0) {
	const [name, pinned] = queue.shift();
	if (seen.has(`${name}@${pinned}`) || !exact(pinned)) continue; // a range resolves by itself
	seen.add(`${name}@${pinned}`);
	const use = nearest(name, pinned);
	if (use === undefined) {
		console.error(`${name}@${pinned}: no published version at or below it`);
		process.exit(1);
	}
	if (use !== pinned) pins[name] = { pinned, use };
	const dependencies = view(`${name}@${use}`, 'dependencies') ?? {};
	for (const [dependency, version] of Object.entries(dependencies)) {
		if (isN8nPackage(dependency)) queue.push([dependency, version]);
	}
}

const file = fileURLToPath(new URL(`../e2e/n8n-pins/${release}.json`, import.meta.url));
writeFileSync(file, `${JSON.stringify(pins, null, '\t')}\n`);
for (const [name, { pinned, use }] of Object.entries(pins)) console.log(`${name} ${pinned} -> ${use}`);
console.log(`${Object.keys(pins).length} pins overridden; written to ${file}`);
