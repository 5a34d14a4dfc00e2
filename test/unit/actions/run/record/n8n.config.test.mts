import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { EXECUTIONS_KEPT_MS } from '../../../../../nodes/Peach/actions/run/record/n8n';

describe("what the record relies on from n8n's configuration (n8n.ts)", () => {
	it("fact 8: n8n keeps an execution 14 days by default (the dev dependencies' @n8n/config)", () => {
		const core = createRequire(import.meta.url).resolve('n8n-core');
		const config = dirname(createRequire(core).resolve('@n8n/config'));
		const source = readFileSync(join(config, 'configs/executions.config.js'), 'utf8');
		const hours = Number(/this\.pruneDataMaxAge = (\d+);/.exec(source)?.[1]);
		expect(hours * 3600_000).toBe(EXECUTIONS_KEPT_MS);
	});
});
