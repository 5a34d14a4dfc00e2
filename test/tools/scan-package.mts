/**
 * npm run scan: lints the package the way n8n's verification scanner (@n8n/scan-community-package)
 * does, without publishing: its source pass (package.json, nodes/, credentials/) and its tarball pass
 * (every file of `npm pack`), both with inline eslint-disable comments ignored.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const work = mkdtempSync(join(tmpdir(), 'peach-scan-'));
let failed = false;
try {
	execFileSync('npm', ['pack', '--pack-destination', work], { cwd: root, stdio: 'ignore' });
	const tgz = readdirSync(work).find((name) => name.endsWith('.tgz'));
	if (!tgz) throw new Error('npm pack produced no tarball (run npm run build first)');
	execFileSync('tar', ['xzf', join(work, tgz), '-C', work]);
	const packed = join(work, 'package');
	const files = readdirSync(packed, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => join(entry.parentPath, entry.name).slice(packed.length + 1))
		.sort();
	console.log(
		`tarball: ${files.length} files (${files.filter((file) => file.endsWith('.map')).length} of them source maps)`,
	);
	const outside = files.filter(
		(file) =>
			!file.startsWith('dist/') &&
			!['package.json', 'README.md', 'LICENSE.md', 'CHANGELOG.md'].includes(file),
	);
	if (outside.length) {
		failed = true;
		console.log(`unexpected files in the tarball: ${outside.join(', ')}`);
	}
	for (const [name, result] of [
		['source pass', await analyzePackage(root, SOURCE_FILE_PATTERNS)],
		['tarball pass', await analyzePackage(packed)],
	] as const) {
		console.log(`${name}: ${result.passed ? 'passed' : `FAILED: ${result.message}`}`);
		if (!result.passed) {
			failed = true;
			if (result.details) console.log(result.details);
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
