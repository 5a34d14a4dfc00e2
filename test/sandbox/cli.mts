/**
 * Starts the Peach sandbox:  npm run sandbox -- [--port 4010] [--api-key KEY] [--webhook URL ...]
 * Environment: PEACH_SANDBOX_PORT, PEACH_SANDBOX_API_KEY, PEACH_SANDBOX_WEBHOOKS (comma-separated URLs),
 * and a rate-limited Peach: PEACH_SANDBOX_MAX_IN_FLIGHT, PEACH_SANDBOX_MAX_PER_SECOND,
 * PEACH_SANDBOX_RETRY_AFTER, PEACH_SANDBOX_LATENCY_MS.
 */
import { DEFAULT_API_KEY, rateLimitFromEnvironment, startSandbox } from './server.mts';

function flag(name: string): string[] {
	const values: string[] = [];
	const args = process.argv.slice(2);
	for (let index = 0; index < args.length; index++) {
		if (args[index] === `--${name}` && args[index + 1] !== undefined) values.push(args[++index]);
		else if (args[index].startsWith(`--${name}=`)) values.push(args[index].slice(name.length + 3));
	}
	return values;
}

const port = Number(flag('port')[0] ?? process.env.PEACH_SANDBOX_PORT ?? 4010);
const apiKey = flag('api-key')[0] ?? process.env.PEACH_SANDBOX_API_KEY ?? DEFAULT_API_KEY;
const webhooks = [
	...flag('webhook'),
	...(process.env.PEACH_SANDBOX_WEBHOOKS ?? '')
		.split(',')
		.map((url) => url.trim())
		.filter(Boolean),
];
const quiet = process.argv.includes('--quiet');

const sandbox = await startSandbox({
	port,
	apiKey,
	webhookTargets: webhooks,
	rateLimit: rateLimitFromEnvironment(),
	log: quiet ? undefined : (line) => process.stdout.write(`[sandbox] ${line}\n`),
});
process.stdout.write(
	`Peach sandbox listening on ${sandbox.url} (API key: ${apiKey === DEFAULT_API_KEY ? DEFAULT_API_KEY : '<as given>'}); webhooks to: ${webhooks.join(', ') || 'none yet (POST /__sandbox/webhooks)'}\n`,
);
const stop = () => {
	void sandbox.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
