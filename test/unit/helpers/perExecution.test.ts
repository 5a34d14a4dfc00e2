import { describe, expect, it } from 'vitest';

import { perExecution } from '../../../nodes/Peach/helpers/perExecution';

describe('perExecution', () => {
	it('makes the value once per context and hands it back to every later call with it', () => {
		let made = 0;
		const valueOf = perExecution((context: { name: string }) => ({
			made: ++made,
			of: context.name,
		}));
		const first = { name: 'first' };
		const second = { name: 'second' };
		expect(valueOf(first)).toBe(valueOf(first));
		expect(valueOf(second)).toEqual({ made: 2, of: 'second' });
		expect(valueOf(first)).toEqual({ made: 1, of: 'first' });
		expect(made).toBe(2);
	});

	it('keeps a value that is false or undefined, and nothing when making it throws', () => {
		let calls = 0;
		const falseOf = perExecution(() => (++calls, false));
		const undefinedOf = perExecution(() => void ++calls);
		const context = {};
		expect([
			falseOf(context),
			falseOf(context),
			undefinedOf(context),
			undefinedOf(context),
		]).toEqual([false, false, undefined, undefined]);
		expect(calls).toBe(2);
		let tries = 0;
		const failing = perExecution(() => {
			tries += 1;
			if (tries === 1) throw new Error('not yet');
			return tries;
		});
		expect(() => failing(context)).toThrow('not yet');
		expect(failing(context)).toBe(2);
		expect(failing(context)).toBe(2);
	});
});
