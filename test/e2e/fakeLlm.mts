/**
 * A stand-in for an OpenAI-compatible chat model, for AI Agent checks without a real model: the first
 * turn calls the first tool it is offered (every required string argument "2+2"), the next turn
 * answers with text. Chat completions, streamed or not. It records what it was asked.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Tool {
	function: {
		name: string;
		parameters?: { properties?: Record<string, { type?: string }>; required?: string[] };
	};
}

export interface FakeLlm {
	url: string;
	requests: Array<{ messages: Array<{ role: string; content?: unknown }>; tools: string[] }>;
	close(): Promise<void>;
}

export const FINAL_ANSWER = 'The refund was approved and done.';

function reply(body: { messages?: Array<{ role: string }>; tools?: Tool[] }) {
	const toolTurnDone = (body.messages ?? []).some((message) => message.role === 'tool');
	const tool = body.tools?.[0];
	if (!toolTurnDone && tool) {
		const args: Record<string, string> = {};
		const schema = tool.function.parameters ?? {};
		for (const name of schema.required ?? Object.keys(schema.properties ?? {})) args[name] = '2+2';
		return {
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_fake_1',
						type: 'function',
						function: { name: tool.function.name, arguments: JSON.stringify(args) },
					},
				],
			},
			finish_reason: 'tool_calls',
		};
	}
	return { message: { role: 'assistant', content: FINAL_ANSWER }, finish_reason: 'stop' };
}

export async function startFakeLlm(): Promise<FakeLlm> {
	const requests: FakeLlm['requests'] = [];
	const server: Server = createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			if (!req.url?.endsWith('/chat/completions')) {
				res.writeHead(404, { 'Content-Type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `no ${req.url} here` } }));
				return;
			}
			const body = JSON.parse(text || '{}');
			requests.push({
				messages: body.messages ?? [],
				tools: (body.tools ?? []).map((tool: Tool) => tool.function.name),
			});
			const { message, finish_reason } = reply(body);
			const base = { id: `chatcmpl-${requests.length}`, created: 1_700_000_000, model: body.model };
			if (body.stream) {
				res.writeHead(200, { 'Content-Type': 'text/event-stream' });
				const delta = { ...message };
				if ('tool_calls' in delta)
					delta.tool_calls = delta.tool_calls?.map((call, index) => ({ index, ...call }));
				for (const chunk of [
					{
						...base,
						object: 'chat.completion.chunk',
						choices: [{ index: 0, delta, finish_reason: null }],
					},
					{
						...base,
						object: 'chat.completion.chunk',
						choices: [{ index: 0, delta: {}, finish_reason }],
					},
				]) {
					res.write(`data: ${JSON.stringify(chunk)}\n\n`);
				}
				res.end('data: [DONE]\n\n');
				return;
			}
			res.writeHead(200, { 'Content-Type': 'application/json' });
			res.end(
				JSON.stringify({
					...base,
					object: 'chat.completion',
					choices: [{ index: 0, message, finish_reason }],
					usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}
