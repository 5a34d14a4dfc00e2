import fc from 'fast-check';

import {
	contentOf,
	Ledger,
	looksAfter,
	type PeachAnswer,
	Process,
	type ProcessPlan,
	runIn,
	saidOf,
	seeded,
	Story,
} from './attackModel';
import {
	crashRetry,
	editorRetry,
	FakeDeduplicationStore,
	FakeExecutions,
	type Lineage,
	newExecution,
} from './n8nRecovery';
import { FakePeachList } from './peachList';
import { send } from './recoveryRuns';

/**
 * Random scenarios for the attack model (attackModel.ts), used by the property tests of
 * test/unit/actions/run/record/record.attack.test.ts: random rows (4 contacts × 3 message
 * variants), random crash points, random recovery paths (the editor's Retry, Retry On Fail, the
 * Retry of a crashed execution, n8n's API retrying it again), rows changed between tries, ordinary
 * executions between, and optionally another worker's older copies of the row.
 *
 * `play` runs one scenario and returns the promise's violations (none when it holds). It assumes
 * what attackModel.ts assumes, plus: the store keeps 2 rows' worth (FakeDeduplicationStore(2)), and
 * the node's row was written by an earlier execution (`seeded`).
 */

const CONTACTS = 4;
const VARIANTS = 3;
const contactPhone = (contact: number) => `+9198770000${String(contact).padStart(2, '0')}`;
const rowParams = (row: Row, width: number) => ({
	...send(contactPhone(row.contact), `variant ${row.variant}`),
	requestOptions: { concurrency: width },
});

interface Row {
	contact: number;
	variant: number;
}

type Kill =
	| { when: 'afterCall' | 'beforeCall' | 'afterPost' | 'beforePost'; n: number }
	| undefined;

type Change =
	| { kind: 'same' }
	| { kind: 'reverse' }
	| { kind: 'rotate'; by: number }
	| { kind: 'drop'; at: number }
	| { kind: 'gain'; at: number; row: Row }
	| { kind: 'duplicate'; at: number };

interface RetryStep {
	/** After a try that failed: the editor's Retry, or Retry On Fail (the same execution, next try). */
	kind: 'editor' | 'onFail';
	change: Change;
	kill: Kill;
	continueOnFail: boolean;
	/** An ordinary execution of the workflow (same node row, other contacts) runs before this try. */
	ordinaryBefore: boolean;
	/** n8n saves the tries that ended and the processes look at them (lifetime.ts) before this try. */
	looksBefore: boolean;
	/** Store calls of this try (1-based) after which another worker's older copy lands. */
	olderCopies: number[];
}

export interface Scenario {
	rows: Row[];
	width: number;
	shape: 'contact and template' | 'documented';
	answers: PeachAnswer[];
	first: { kill: Kill; continueOnFail: boolean; olderCopies: number[] };
	retries: RetryStep[];
	/** After a Retry of a crashed execution succeeded: n8n's API retries the crashed one again. */
	apiRetryAtEnd: boolean;
}

const rowArb = fc.record({
	contact: fc.integer({ min: 0, max: CONTACTS - 1 }),
	variant: fc.integer({ min: 0, max: VARIANTS - 1 }),
});
const killArb: fc.Arbitrary<Kill> = fc.option(
	fc.record({
		when: fc.constantFrom(
			'afterCall' as const,
			'beforeCall' as const,
			'afterPost' as const,
			'beforePost' as const,
		),
		n: fc.integer({ min: 1, max: 24 }),
	}),
	{ nil: undefined, freq: 3 },
);
const changeArb: fc.Arbitrary<Change> = fc.oneof(
	fc.constant({ kind: 'same' as const }),
	fc.constant({ kind: 'reverse' as const }),
	fc.record({ kind: fc.constant('rotate' as const), by: fc.integer({ min: 1, max: 11 }) }),
	fc.record({ kind: fc.constant('drop' as const), at: fc.nat(11) }),
	fc.record({ kind: fc.constant('gain' as const), at: fc.nat(12), row: rowArb }),
	fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(11) }),
);

export function scenarioArb(olderCopies: boolean, notSent = true): fc.Arbitrary<Scenario> {
	const copies = olderCopies
		? fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 6 })
		: fc.constant([] as number[]);
	return fc.record({
		rows: fc.array(rowArb, { minLength: 1, maxLength: 12 }),
		width: fc.integer({ min: 1, max: 3 }),
		shape: fc.constantFrom('contact and template' as const, 'documented' as const),
		answers: fc.array(
			fc.constantFrom<PeachAnswer>(
				'accept',
				'accept',
				'accept',
				'accept',
				'accept',
				...(notSent ? (['refuse'] as const) : []),
				'serverError',
				'acceptThenTimeout',
			),
			{ minLength: CONTACTS * VARIANTS, maxLength: CONTACTS * VARIANTS },
		),
		first: fc.record({
			kill: killArb,
			continueOnFail: notSent ? fc.boolean() : fc.constant(true),
			olderCopies: copies,
		}),
		retries: fc.array(
			fc.record({
				kind: fc.constantFrom('editor' as const, 'onFail' as const),
				change: changeArb,
				kill: killArb,
				continueOnFail: notSent ? fc.boolean() : fc.constant(true),
				ordinaryBefore: fc.boolean(),
				looksBefore: fc.boolean(),
				olderCopies: copies,
			}),
			{ minLength: 1, maxLength: 4 },
		),
		apiRetryAtEnd: fc.boolean(),
	});
}

function changed(rows: Row[], change: Change): Row[] {
	const next = [...rows];
	const at = (index: number) => index % Math.max(1, next.length);
	switch (change.kind) {
		case 'reverse':
			return next.reverse();
		case 'rotate':
			return [...next.slice(at(change.by)), ...next.slice(0, at(change.by))];
		case 'drop':
			if (next.length > 1) next.splice(at(change.at), 1);
			return next;
		case 'gain':
			next.splice(change.at % (next.length + 1), 0, change.row);
			return next;
		case 'duplicate':
			next.splice(at(change.at), 0, next[at(change.at)]);
			return next;
		default:
			return next;
	}
}

function planOf(kill: Kill, olderCopies: number[]): ProcessPlan {
	const copies = new Set(olderCopies);
	return {
		olderCopyAfter: (step) => step.kind !== 'post' && copies.has(step.call),
		killAfter: (step) =>
			kill !== undefined &&
			((kill.when === 'afterCall' && step.kind !== 'post' && step.call === kill.n) ||
				(kill.when === 'afterPost' && step.kind === 'post' && step.posts === kill.n)),
		killBefore: (step) =>
			kill !== undefined &&
			((kill.when === 'beforeCall' && step.kind !== 'post' && step.call === kill.n) ||
				(kill.when === 'beforePost' && step.kind === 'post' && step.posts === kill.n)),
	};
}

let ordinaryContacts = 0;

/** Plays a scenario: the execution's first try, then its recoveries. The promise's violations. */
export async function play(scenario: Scenario, trace?: (line: string) => void): Promise<string[]> {
	const store = new FakeDeduplicationStore(2);
	const peach = new FakePeachList(scenario.shape);
	const executions = new FakeExecutions();
	await seeded(store, peach);
	const answerOf = (content: string): PeachAnswer => {
		const [phone, , values] = JSON.parse(content) as [string, string, { first_name: string }];
		const contact = Number(phone.slice(-2));
		const variant = Number(values.first_name.replace('variant ', ''));
		if (!phone.startsWith('+9198770000')) return 'accept';
		return scenario.answers[contact * VARIANTS + variant] ?? 'accept';
	};
	const story = new Story();
	const original = newExecution(store, { peach, executions });
	const ended: Array<{ id: string; how: 'succeeded' | 'failed' }> = [];
	let rows = scenario.rows;
	let current: Lineage = original;
	let crashed: Lineage | undefined;
	let workers = 0;
	const attempt = async (
		lineage: Lineage,
		kill: Kill,
		olderCopies: number[],
		continueOnFail: boolean,
	) => {
		const result = await story.run(
			new Process(`worker-${++workers}`, planOf(kill, olderCopies)),
			lineage,
			rows.map((row) => rowParams(row, scenario.width)),
			{ continueOnFail, answer: answerOf },
		);
		if (!result.killed)
			ended.push({ id: lineage.executionId, how: result.error ? 'failed' : 'succeeded' });
		trace?.(
			`${lineage.mode} ${lineage.executionId} rows=${rows.map((r) => `c${r.contact}v${r.variant}`).join(',')} killed=${result.killed} error=${result.error?.message ?? '-'} said=${result.output ? saidOf(result).join(',') : '-'} posts=${result.requests
				.filter((r) => r.options.method === 'POST')
				.map((r) => {
					const [phone, , v] = JSON.parse(contentOf(r.body)) as [
						string,
						string,
						{ first_name: string },
					];
					return `c${Number(phone.slice(-2))}v${v.first_name.slice(-1)}`;
				})
				.join(',')}`,
		);
		return result;
	};
	let last = await attempt(
		original,
		scenario.first.kill,
		scenario.first.olderCopies,
		scenario.first.continueOnFail,
	);
	if (last.killed) crashed = original;
	for (const step of scenario.retries) {
		if (!last.killed && !last.error) break;
		if (step.ordinaryBefore) {
			const ordinary = newExecution(store, { peach, executions });
			const phone = `+9197${String(++ordinaryContacts).padStart(8, '0')}`;
			await runIn(
				new Process(`worker-${++workers}`),
				ordinary,
				[send(phone, 'other')],
				new Ledger(),
			);
			ended.push({ id: ordinary.executionId, how: 'succeeded' });
		}
		if (step.looksBefore) {
			for (const { id, how } of ended) executions.ended(id, 1, how);
			await looksAfter(executions, []);
		}
		rows = changed(rows, step.change);
		if (last.killed) current = crashRetry(current);
		else if (step.kind === 'editor') current = editorRetry(current);
		last = await attempt(current, step.kill, step.olderCopies, step.continueOnFail);
		if (last.killed) crashed = current;
	}
	if (scenario.apiRetryAtEnd && crashed && !last.killed && !last.error) {
		for (const { id, how } of ended) executions.ended(id, 1, how);
		await looksAfter(executions, []);
		await attempt(crashRetry(crashed), undefined, [], true);
	}
	return story.violations();
}
