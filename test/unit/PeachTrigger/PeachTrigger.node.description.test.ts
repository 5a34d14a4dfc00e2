import { describe, expect, it } from 'vitest';

import { PeachTrigger } from '../../../nodes/PeachTrigger/PeachTrigger.node';

describe('Peach node description', () => {
	it('the trigger is a trigger node, not a tool', () => {
		const trigger = new PeachTrigger().description;
		expect(trigger.group).toEqual(['trigger']);
		expect(trigger.inputs).toEqual([]);
		expect(trigger.usableAsTool).toBeUndefined();
	});
});
