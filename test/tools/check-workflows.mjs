/**
 * Checks the GitHub workflow files: valid YAML (the `yaml` parser, strict), each with a name, triggers
 * and jobs whose steps run or use something. Part of npm run lint.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parseDocument } from 'yaml';

const folder = '.github/workflows';
const problems = [];
for (const file of readdirSync(folder).filter((name) => /\.ya?ml$/.test(name))) {
	const document = parseDocument(readFileSync(join(folder, file), 'utf8'), {
		strict: true,
		uniqueKeys: true,
	});
	for (const error of [...document.errors, ...document.warnings])
		problems.push(`${file}: ${error.message}`);
	const workflow = document.toJS() ?? {};
	if (typeof workflow.name !== 'string') problems.push(`${file}: no name`);
	if (!workflow.on) problems.push(`${file}: no "on" triggers`);
	for (const [id, job] of Object.entries(workflow.jobs ?? {})) {
		if (!job['runs-on']) problems.push(`${file}: job ${id} has no runs-on`);
		for (const [index, step] of (job.steps ?? []).entries()) {
			if (!step.run && !step.uses)
				problems.push(`${file}: job ${id} step ${index + 1} neither runs nor uses`);
		}
	}
	if (!workflow.jobs) problems.push(`${file}: no jobs`);
}
if (problems.length) {
	console.error(problems.join('\n'));
	process.exit(1);
}
console.log(`workflows: ${readdirSync(folder).length} files valid`);
