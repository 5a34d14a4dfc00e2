#!/usr/bin/env node
// The npm registry reachable here holds only the Linux builds of some optional platform packages
// (@unrs/resolver-binding-*, pulled in by n8n's lint config). npm then leaves the other platforms out
// of package-lock.json, and `npm ci` refuses the lockfile as "out of sync". This adds an entry for each
// missing optional platform package, with the os/cpu its name states, so `npm ci` accepts the lockfile
// and skips them on platforms they do not fit (they are never downloaded). Run it after `npm install`
// changes package-lock.json:  node test/tools/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OSES = [
	'aix',
	'android',
	'darwin',
	'freebsd',
	'linux',
	'netbsd',
	'openbsd',
	'openharmony',
	'sunos',
	'win32',
];
const CPUS = [
	'arm',
	'arm64',
	'ia32',
	'loong64',
	'mips64el',
	'ppc64',
	'riscv64',
	's390x',
	'wasm32',
	'x64',
];

const path = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const added = [];
for (const [location, entry] of Object.entries(lock.packages)) {
	for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
		const key = `node_modules/${name}`;
		const nested = `${location}/node_modules/${name}`;
		if (lock.packages[key] || lock.packages[nested]) continue;
		const tokens = name.split('/').pop().split('-');
		const os = tokens.find((token) => OSES.includes(token));
		const cpu = tokens.find((token) => CPUS.includes(token));
		if (!os || !cpu || !/^\d+\.\d+\.\d+$/.test(range)) {
			console.error(
				`cannot complete ${name}@${range} (needed by ${location || 'the root'}): no os/cpu in its name or not an exact version`,
			);
			process.exitCode = 1;
			continue;
		}
		const libc = tokens.includes('musl')
			? ['musl']
			: tokens.includes('gnu') || tokens.includes('gnueabihf')
				? ['glibc']
				: undefined;
		lock.packages[key] = {
			version: range,
			cpu: [cpu],
			...(libc ? { libc } : {}),
			license: 'MIT',
			optional: true,
			os: [os],
		};
		added.push(`${name}@${range}`);
	}
}
writeFileSync(path, `${JSON.stringify(lock, null, '\t')}\n`);
console.log(
	added.length
		? `added ${added.length} optional platform entries:\n  ${added.join('\n  ')}`
		: 'lockfile already complete',
);
