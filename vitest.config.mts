import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * n8n-workflow ships source maps that name sources it does not ship, and Vite warns once per module
 * (~120 lines per run) about something no test can change. This drops exactly that warning; Vitest
 * replaces `customLogger`, so the filter wraps the resolved logger.
 */
const quietMissingSources: Plugin = {
	name: 'quiet-missing-sources',
	configResolved(config) {
		const warnOnce = config.logger.warnOnce.bind(config.logger);
		config.logger.warnOnce = (message, options) => {
			if (!/^Sourcemap for ".*" points to missing source files$/.test(message))
				warnOnce(message, options);
		};
	},
};

export default defineConfig({
	test: {
		projects: [
			{
				plugins: [quietMissingSources],
				test: {
					name: 'unit',
					include: ['test/unit/**/*.test.ts', 'test/unit/**/*.test.mts'],
					environment: 'node',
					setupFiles: ['test/unit/support/proofWait.ts', 'test/unit/support/testNameCheck.ts'],
				},
			},
			{
				plugins: [quietMissingSources],
				test: {
					name: 'sandbox',
					include: ['test/sandbox/**/*.test.mts'],
					environment: 'node',
					testTimeout: 20000,
				},
			},
		],
	},
});
