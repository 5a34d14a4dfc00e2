import type { INodeProperties } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { Peach } from '../../../nodes/Peach/Peach.node';
import { createExecuteContext, locator } from './harness';

/** The unit harness gives the node its parameters as n8n does: the description decides. */

const description = new Peach().description;

function offeredOperations(): Array<[string, string]> {
	const resources = description.properties.find((p) => p.name === 'resource')?.options as Array<{
		value: string;
	}>;
	return resources.flatMap(({ value: resource }) => {
		const operation = description.properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes(resource),
		);
		return (operation?.options as Array<{ value: string }>).map(
			({ value }) => [resource, value] as [string, string],
		);
	});
}

describe('the unit harness', () => {
	it('a default changed in the description changes what the node does (Refund: Part of the Order → The Whole Order)', async () => {
		const params = { resource: 'order', operation: 'refund', orderId: 'wa_ord_1' };
		const refund = async (properties?: INodeProperties[]) => {
			const harness = createExecuteContext({
				params,
				properties,
				responses: [{ statusCode: 200, body: { status: 'success' } }],
			});
			const output = await new Peach().execute.call(harness.context).catch((error: Error) => error);
			return { output, requests: harness.requests };
		};
		const asShipped = await refund();
		expect((asShipped.output as Error).message).toContain(
			'Amount (Minor Units) 0 is empty or zero',
		);
		expect(asShipped.requests).toHaveLength(0);
		const changed = description.properties.map((property) =>
			property.name === 'refundType' ? { ...property, default: 'full' } : property,
		);
		const withChangedDefault = await refund(changed);
		expect(withChangedDefault.requests).toHaveLength(1);
		expect(withChangedDefault.requests[0].body).toEqual({ speed: 'normal' });
	});

	it('every operation the editor offers, run with only what a new node has, reads no field the editor hides', async () => {
		const hidden: string[] = [];
		for (const [resource, operation] of offeredOperations()) {
			const harness = createExecuteContext({
				params: { resource, operation, templateId: locator('wat_1') },
				responses: [],
			});
			await new Peach().execute.call(harness.context).catch(() => undefined);
			for (const read of harness.reads)
				if (!read.shown && !read.name.includes('.'))
					hidden.push(`${resource}.${operation}: ${read.name}`);
		}
		expect(hidden).toEqual([]);
	});
});
