import type { IExecuteFunctions } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import type {
	EarlierOutcome,
	PeachSays,
	PeachWitness,
} from '../../../../../nodes/Peach/actions/operation/node.type';
import { peachDecides } from '../../../../../nodes/Peach/actions/run/record/peachDecides';
import { askWitness, runWitness } from '../../../../../nodes/Peach/actions/run/record/peachWitness';
import type { FromStore } from '../../../../../nodes/Peach/actions/run/record/readBack';

/**
 * The one interface the record asks of an operation that Peach can show (peachWitness.ts), over a
 * toy witness: a plan is `{source, value}`; Peach shows values per source, with `?` for one it
 * cannot tell.
 */

interface Plan {
	source: string;
	value: number;
}

function toy(shows: Record<string, Array<number | '?'> | 'cannot' | 'fails'>) {
	const reads: string[] = [];
	const witness: PeachWitness<Plan, number | '?'> = {
		sourceOf: (plan) =>
			plan.source === 'none' ? { cannotTell: 'no source' } : { source: plan.source },
		async read(source) {
			reads.push(source);
			const shown = shows[source];
			if (shown === 'fails') throw new Error('Peach is down');
			if (shown === 'cannot') return { cannotTell: 'a shape it does not read' };
			return shown ?? [];
		},
		matches: (plan, seen) => (seen === '?' ? 'unsure' : seen === plan.value),
		shown: (plan, seen) => ({
			json: { id: `${plan.source}-${String(seen)}`, status: 'ok' },
			note: 'shown',
		}),
	};
	return { witness, reads };
}

// No execution context: the toy witnesses above never read it.
const context = {} as IExecuteFunctions;
const verdict = (says: PeachSays | undefined) =>
	!says
		? undefined
		: 'shown' in says
			? `shown ${String(says.shown.id)}`
			: 'absent' in says
				? 'absent'
				: `cannotTell: ${says.cannotTell}`;

async function ask(
	shows: Parameters<typeof toy>[0],
	asked: Plan[],
	known: Plan[] = [],
): Promise<{ verdicts: Array<string | undefined>; reads: string[] }> {
	const { witness, reads } = toy(shows);
	const answers = await askWitness(
		context,
		witness,
		asked.map((plan, index) => ({ index, plan })),
		known,
		0,
	);
	return { verdicts: asked.map((_, index) => verdict(answers.get(index))), reads };
}

describe('askWitness: what Peach shows of the deliveries asked about', () => {
	it.each<[string, Parameters<typeof toy>[0], Plan[], Plan[], string[]]>([
		['one shown for one asked', { a: [5] }, [{ source: 'a', value: 5 }], [], ['shown a-5']],
		['none shown', { a: [7] }, [{ source: 'a', value: 5 }], [], ['absent']],
		[
			'two identical asked, two shown',
			{ a: [5, 5] },
			[
				{ source: 'a', value: 5 },
				{ source: 'a', value: 5 },
			],
			[],
			['shown a-5', 'shown a-5'],
		],
		[
			'two identical asked, one shown: cannot say which',
			{ a: [5] },
			[
				{ source: 'a', value: 5 },
				{ source: 'a', value: 5 },
			],
			[],
			[
				'cannotTell: Peach shows 1 such record since the execution began for 2 such deliveries here, so it cannot say which were made.',
				'cannotTell: Peach shows 1 such record since the execution began for 2 such deliveries here, so it cannot say which were made.',
			],
		],
		[
			'one asked, two shown: several candidates',
			{ a: [5, 5] },
			[{ source: 'a', value: 5 }],
			[],
			[
				'cannotTell: Peach shows 2 such records since the execution began for 1 such delivery here, so it cannot say which were made.',
			],
		],
		[
			'the known one takes its record first',
			{ a: [5, 5] },
			[{ source: 'a', value: 5 }],
			[{ source: 'a', value: 5 }],
			['shown a-5'],
		],
		[
			'the known one took the only record: none left',
			{ a: [5] },
			[{ source: 'a', value: 5 }],
			[{ source: 'a', value: 5 }],
			['absent'],
		],
		[
			'a known one Peach does not show: incomplete',
			{ a: [] },
			[{ source: 'a', value: 5 }],
			[{ source: 'a', value: 6 }],
			[
				"cannotTell: Peach does not show one that n8n's record says was made, so what it shows is not complete.",
			],
		],
		[
			'a record it cannot tell',
			{ a: ['?'] },
			[{ source: 'a', value: 5 }],
			[],
			['cannotTell: unsure'],
		],
		[
			'a shape it does not read',
			{ a: 'cannot' },
			[{ source: 'a', value: 5 }],
			[],
			['cannotTell: a shape it does not read'],
		],
		['no source', {}, [{ source: 'none', value: 5 }], [], ['cannotTell: no source']],
		[
			'a failed read',
			{ a: 'fails' },
			[{ source: 'a', value: 5 }],
			[],
			['cannotTell: Peach could not be read (Peach is down), so it was not asked.'],
		],
		[
			'other sources are their own',
			{ a: [5], b: [] },
			[
				{ source: 'a', value: 5 },
				{ source: 'b', value: 5 },
			],
			[],
			['shown a-5', 'absent'],
		],
	])('%s', async (_, shows, asked, known, expected) => {
		expect((await ask(shows, asked, known)).verdicts).toEqual(expected);
	});

	it('each source is read once, however many deliveries it shows; a source nobody asks about is never read', async () => {
		const { reads } = await ask(
			{ a: [1, 2, 3], b: [1] },
			[
				{ source: 'a', value: 1 },
				{ source: 'a', value: 2 },
				{ source: 'a', value: 3 },
				{ source: 'b', value: 1 },
			],
			[{ source: 'c', value: 1 }],
		);
		expect(reads).toEqual(['a', 'b']);
	});

	it('a failed read says so (unread): never made again by itself', async () => {
		const { witness } = toy({ a: 'fails' });
		const answers = await runWitness(context, witness, [{ source: 'a', value: 1 }]).ask([0], [], 0);
		expect(answers.get(0)).toMatchObject({ unread: true });
	});
});

describe('peachDecides: what the record does with what Peach says', () => {
	const unknown: EarlierOutcome = {
		outcome: 'unknown',
		at: '2026-03-01T10:00:00.000Z',
		reason: 'A 500.',
	};
	const sent: EarlierOutcome = {
		outcome: 'sent',
		at: '2026-03-01T10:00:00.000Z',
		json: { id: 'x' },
	};

	async function decide(
		shows: Parameters<typeof toy>[0],
		earlier: EarlierOutcome | undefined,
		from: FromStore,
		askNotShown = true,
		onEvidence = false,
	) {
		const { witness, reads } = toy(shows);
		const earlierOf = [earlier === undefined ? undefined : { ...earlier }];
		const cleared = await peachDecides({
			witness: runWitness(context, witness, [{ source: 'a', value: 5 }]),
			earlierOf,
			fromStore: [from],
			askNotShown,
			since: 0,
			onEvidence,
		});
		return { earlier: earlierOf[0], cleared: [...cleared], reads };
	}

	it('unknown, Peach shows it: sent, with what Peach shows and why', async () => {
		const { earlier, cleared } = await decide({ a: [5] }, unknown, 'absent');
		expect(earlier).toEqual({
			outcome: 'sent',
			at: unknown.at,
			json: { id: 'a-5', status: 'ok' },
			peachNote: 'shown',
			peach: { id: 'a-5', status: 'ok' },
		});
		expect(cleared).toEqual([]);
	});

	it("unknown, Peach clearly shows none: it may be made (its claim is this run's)", async () => {
		expect(await decide({ a: [] }, unknown, 'unknown')).toMatchObject({
			earlier: undefined,
			cleared: [0],
		});
	});

	it('unknown, Peach shows none, but the earlier request ended just now: still unknown (Peach may be processing it)', async () => {
		const justNow = { ...unknown, at: new Date().toISOString() };
		const { earlier, cleared } = await decide({ a: [] }, justNow, 'unknown');
		expect(earlier).toEqual({
			...justNow,
			reason:
				'A 500. Peach shows none of it yet, but the earlier request ended less than 2 minutes ago and Peach may still be processing it.',
		});
		expect(cleared).toEqual([]);
	});

	it('unknown, Peach cannot tell: unknown, with both reasons', async () => {
		const { earlier } = await decide({ a: 'cannot' }, unknown, 'unknown');
		expect(earlier).toEqual({ ...unknown, reason: 'A 500. a shape it does not read' });
	});

	it('unknown, Peach could not be read: unknown, and not resent even when asked to resend unknowns', async () => {
		const { earlier } = await decide({ a: 'fails' }, unknown, 'unknown');
		expect(earlier).toMatchObject({ outcome: 'unknown', peachUnread: true });
	});

	it('a Retry whose record shows nothing of it: Peach shows it ⇒ sent; none ⇒ the record decides; unread ⇒ unknown', async () => {
		// None, or Peach's list cannot tell ⇒ the record decides (made).
		expect((await decide({ a: [5] }, undefined, 'notReached')).earlier?.outcome).toBe('sent');
		expect((await decide({ a: [] }, undefined, 'notReached')).earlier).toBeUndefined();
		expect((await decide({ a: 'cannot' }, undefined, 'notReached')).earlier).toBeUndefined();
		expect((await decide({ a: 'fails' }, undefined, 'notReached')).earlier).toMatchObject({
			outcome: 'unknown',
			peachUnread: true,
		});
	});

	it('made only on evidence, in a crash Retry whose record shows nothing of it: Peach cannot tell ⇒ unknown; none ⇒ made', async () => {
		expect((await decide({ a: 'cannot' }, undefined, 'notReached', true, true)).earlier).toEqual({
			outcome: 'unknown',
			at: null,
			reason:
				"n8n's record of this execution shows nothing of it (it may never have been made, or the record lost it), so it is made again only once Peach says it is not there. a shape it does not read",
		});
		expect((await decide({ a: [] }, undefined, 'notReached', true, true)).earlier).toBeUndefined();
		expect((await decide({ a: [5] }, undefined, 'notReached', true, true)).earlier?.outcome).toBe(
			'sent',
		);
	});

	it('nothing in doubt: Peach is not asked (sent, not sent, Retry On Fail with nothing recorded)', async () => {
		expect((await decide({ a: [5] }, sent, 'sent')).reads).toEqual([]);
		expect((await decide({ a: [5] }, undefined, 'notSent')).reads).toEqual([]);
		expect((await decide({ a: [5] }, undefined, 'notReached', false)).reads).toEqual([]);
	});
});
