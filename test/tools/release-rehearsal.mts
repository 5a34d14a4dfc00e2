/**
 * npm run scan, last step: the release rehearsed without publishing. Packs the package as
 * .github/workflows/publish.yml would publish it (run `npm run build` first), lists the tarball and
 * checks that:
 * - it holds package.json, README.md, LICENSE.md, CHANGELOG.md and dist/** only (no tests, sandbox,
 *   TypeScript sources, docs or images: README's pictures are linked from the repository, and n8n
 *   reads nothing of a package but package.json and what its `n8n` section names);
 * - no JavaScript points at a source map, and no source map at a source, that the tarball lacks (the
 *   build ships no maps: the sources are not shipped, and a map naming missing sources only makes
 *   tools warn, as n8n-workflow's do in this repo's own tests);
 * - every path of package.json's `n8n` section, and every `file:` icon the built nodes name, is in it;
 * - the built nodes and credentials (dist/, what was packed) describe exactly what their committed
 *   fingerprints promise (test/unit/frozen/, docs/versioning.md);
 * - package.json and package-lock.json agree on the version, and CHANGELOG.md has its section;
 * - `npm publish --dry-run <tarball>` exits 0 (it publishes nothing; without npm credentials it warns
 *   that publishing needs a login, and goes on).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { ICredentialType, INodeType } from 'n8n-workflow';

import {
	compareContracts,
	type ContractEntry,
	credentialContract,
	descriptionsOf,
	nodeContract,
} from '../unit/frozen/contract.mts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
	name: string;
	version: string;
	n8n: { nodes: string[]; credentials: string[] };
};
const ALWAYS = ['CHANGELOG.md', 'LICENSE.md', 'README.md', 'package.json'];

const problems: string[] = [];
const work = mkdtempSync(join(tmpdir(), 'peach-release-'));
try {
	if (!existsSync(join(root, 'dist'))) throw new Error('no dist/: run npm run build first');
	execFileSync('npm', ['pack', '--pack-destination', work], { cwd: root, stdio: 'ignore' });
	const tarball = join(work, `${pkg.name}-${pkg.version}.tgz`);
	if (!existsSync(tarball)) throw new Error(`npm pack made no ${tarball}`);

	const listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
		.split('\n')
		.filter((line) => line && !line.endsWith('/'))
		.map((line) => line.replace(/^package\//, ''))
		.sort();
	const files = new Set(listed);
	console.log(`release rehearsal: ${posix.basename(tarball)}, ${statSync(tarball).size} bytes,`);
	console.log(`${listed.length} files:`);
	for (const file of listed) console.log(`  ${file}`);

	// What the tarball holds.
	for (const file of ALWAYS) if (!files.has(file)) problems.push(`${file} is not in the tarball`);
	const outside = listed.filter((file) => !ALWAYS.includes(file) && !file.startsWith('dist/'));
	if (outside.length) problems.push(`not to be published: ${outside.join(', ')}`);
	const sources = listed.filter((file) => /\.(m|c)?ts$/.test(file));
	if (sources.length) problems.push(`TypeScript in the tarball: ${sources.join(', ')}`);

	execFileSync('tar', ['xzf', tarball, '-C', work]);
	const unpacked = join(work, 'package');
	const read = (file: string) => readFileSync(join(unpacked, file), 'utf8');

	// Source maps: each map's sources, and each script's map, in the tarball.
	for (const file of listed) {
		if (file.endsWith('.map')) {
			const map = JSON.parse(read(file)) as { sources?: string[]; sourcesContent?: unknown[] };
			const missing = (map.sources ?? []).filter(
				(source, at) =>
					!map.sourcesContent?.[at] && !files.has(posix.join(posix.dirname(file), source)),
			);
			if (missing.length) problems.push(`${file} names missing sources: ${missing.join(', ')}`);
		}
		if (file.endsWith('.js')) {
			const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(read(file))?.[1];
			if (url && !url.startsWith('data:') && !files.has(posix.join(posix.dirname(file), url)))
				problems.push(`${file} points at ${url}, which is not in the tarball`);
		}
	}

	// What n8n loads: the n8n section, then each node's icons and codex.
	for (const path of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		if (!files.has(path)) {
			problems.push(`package.json n8n names ${path}, which is not in the tarball`);
			continue;
		}
		for (const [, icon] of read(path).matchAll(/['"]file:([^'"]+)['"]/g)) {
			const at = posix.join(posix.dirname(path), icon);
			if (!files.has(at)) problems.push(`${path} names icon ${icon} (${at}), not in the tarball`);
		}
		const codex = path.replace(/\.js$/, '.json');
		if (path.endsWith('.node.js') && !files.has(codex)) problems.push(`no codex ${codex}`);
	}

	// The built classes against the fingerprints (the unit test reads the TypeScript sources).
	const load = createRequire(import.meta.url);
	const frozen = (name: string) =>
		JSON.parse(
			readFileSync(join(root, 'test/unit/frozen', `${name}.json`), 'utf8'),
		) as ContractEntry[];
	const compare = (name: string, contract: ContractEntry[]) => {
		if (!existsSync(join(root, 'test/unit/frozen', `${name}.json`))) {
			problems.push(`built ${name}: no fingerprint test/unit/frozen/${name}.json`);
			return;
		}
		const { broken, added } = compareContracts(frozen(name), contract);
		for (const line of [...broken, ...added])
			problems.push(
				`built ${name}: ${line}: a changed default or parameter needs a new node version: see docs/versioning.md`,
			);
	};
	let fingerprinted = 0;
	for (const path of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) {
		// As n8n's loader: the class named like the file (Peach.node.js exports Peach).
		const className = posix.basename(path).replace(/\.(node|credentials)\.js$/, '');
		const Exported = (load(join(root, path)) as Record<string, new () => unknown>)[className];
		if (typeof Exported !== 'function') {
			problems.push(`${path} exports no class ${className}`);
			continue;
		}
		const made = new Exported();
		if (path.endsWith('.node.js'))
			for (const [version, description] of descriptionsOf(made as INodeType)) {
				compare(`${description.name}.v${version}`, nodeContract(description, version));
				fingerprinted++;
			}
		else {
			compare((made as ICredentialType).name, credentialContract(made as ICredentialType));
			fingerprinted++;
		}
	}
	console.log(`built descriptions: ${fingerprinted} compared with test/unit/frozen/`);

	// The version, said the same everywhere a release reads it.
	const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
		version: string;
		packages: Record<string, { version?: string }>;
	};
	if (lock.version !== pkg.version || lock.packages['']?.version !== pkg.version)
		problems.push(`package-lock.json's root is not at ${pkg.version}: run npm install`);
	if (
		!new RegExp(`^## \\[${pkg.version.replace(/\./g, '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm').test(
			read('CHANGELOG.md'),
		)
	)
		problems.push(`CHANGELOG.md has no "## [${pkg.version}] - <date>" section`);

	// npm's own last look, from the temp folder (not this repo's .npmrc or scripts). Publishes nothing.
	// --force: once this version is on npm, npm's dry run would refuse to "publish over" it.
	const dryRun = spawnSync('npm', ['publish', '--dry-run', '--force', tarball], {
		cwd: work,
		encoding: 'utf8',
	});
	const said = `${dryRun.stdout}${dryRun.stderr}`
		.split('\n')
		.filter((line) => line && !/^npm notice [\d.]+\s*[kMG]?B /.test(line));
	console.log(`npm publish --dry-run: exit ${String(dryRun.status)}`);
	for (const line of said) console.log(`  ${line}`);
	if (dryRun.status !== 0) problems.push(`npm publish --dry-run exited ${String(dryRun.status)}`);
} finally {
	rmSync(work, { recursive: true, force: true });
}

for (const problem of problems) console.log(`FAIL ${problem}`);
console.log(problems.length ? 'release rehearsal: FAILED' : 'release rehearsal: passed');
process.exit(problems.length ? 1 : 0);
