import type { IExecuteFunctions } from 'n8n-workflow';

import type { PeachSays, PeachWitness } from '../../operation/node.type';

export type { PeachSays, PeachWitness } from '../../operation/node.type';

/**
 * Peach as the witness of deliveries other than template messages (witness.ts has those): an order's
 * refunds, an order made with the user's own ID, a broadcast. A delivering operation that Peach can
 * show gives a `PeachWitness`; a later try asks it about the deliveries whose outcome the record
 * cannot tell (peachDecides.ts), each of Peach's records read once, and Peach's answer is one of:
 * - `shown`: Peach shows it made (the output, `alreadySent`, holds what Peach shows);
 * - `absent`: Peach clearly shows none: it may be made;
 * - `cannotTell`: Peach's answer cannot say (a shape the node does not read, no date, several
 *   candidates, a failed read: `unread`); never made again by itself.
 */

/** One delivery asked about, or one the record knows made (it takes what Peach shows of it first). */
export interface Asked<Plan> {
	index: number;
	plan: Plan;
}

const AMBIGUOUS = (shown: number, asked: number) =>
	`Peach shows ${shown} such record${shown === 1 ? '' : 's'} since the execution began for ${asked} such deliver${asked === 1 ? 'y' : 'ies'} here, so it cannot say which were made.`;
const INCOMPLETE =
	"Peach does not show one that n8n's record says was made, so what it shows is not complete.";
const UNREAD = (message: string) => `Peach could not be read (${message}), so it was not asked.`;

/** What the things seen in one source say of the deliveries asked there (`known` take theirs first). */
function decideSource<Plan, Seen>(
	witness: PeachWitness<Plan, Seen>,
	seen: Seen[],
	asked: Array<Asked<Plan>>,
	known: Plan[],
	answers: Map<number, PeachSays>,
): void {
	const pool = [...seen];
	let incomplete = false;
	for (const plan of known) {
		const at = pool.findIndex((item) => witness.matches(plan, item) === true);
		if (at === -1) incomplete = true;
		else pool.splice(at, 1);
	}
	// Identical deliveries are asked together: one thing shown for each, or Peach cannot say which.
	const groups = new Map<string, Array<Asked<Plan>>>();
	for (const item of asked) {
		const key = JSON.stringify(item.plan);
		groups.set(key, [...(groups.get(key) ?? []), item]);
	}
	for (const members of groups.values()) {
		const { plan } = members[0];
		const verdicts = pool.map((item) => witness.matches(plan, item));
		const unsure = verdicts.find((verdict): verdict is string => typeof verdict === 'string');
		const matching = pool.filter((_, position) => verdicts[position] === true);
		const reason = incomplete
			? INCOMPLETE
			: (unsure ??
				(matching.length > 0 && matching.length !== members.length
					? AMBIGUOUS(matching.length, members.length)
					: undefined));
		members.forEach((member, position) => {
			if (reason !== undefined) answers.set(member.index, { cannotTell: reason });
			else if (matching.length === 0) answers.set(member.index, { absent: true });
			else {
				const { json, note } = witness.shown(member.plan, matching[position]);
				answers.set(member.index, { shown: json, note });
			}
		});
		for (const item of matching.slice(0, members.length)) pool.splice(pool.indexOf(item), 1);
	}
}

/**
 * What Peach shows of the deliveries `asked` about, each source read once (and only where one is
 * asked about); `known`: deliveries the record knows made, which take what Peach shows of them first.
 */
export async function askWitness<Plan, Seen>(
	context: IExecuteFunctions,
	witness: PeachWitness<Plan, Seen>,
	asked: Array<Asked<Plan>>,
	known: Plan[],
	since: number,
): Promise<Map<number, PeachSays>> {
	const answers = new Map<number, PeachSays>();
	const bySource = new Map<string, { asked: Array<Asked<Plan>>; known: Plan[] }>();
	for (const item of asked) {
		const where = witness.sourceOf(item.plan);
		if ('cannotTell' in where) answers.set(item.index, { cannotTell: where.cannotTell });
		else {
			const group = bySource.get(where.source) ?? { asked: [], known: [] };
			group.asked.push(item);
			bySource.set(where.source, group);
		}
	}
	for (const plan of known) {
		const where = witness.sourceOf(plan);
		if ('source' in where) bySource.get(where.source)?.known.push(plan);
	}
	for (const [source, group] of bySource) {
		let seen: Seen[] | { cannotTell: string };
		try {
			seen = await witness.read.call(context, source, since);
		} catch (error) {
			const says: PeachSays = { cannotTell: UNREAD((error as Error).message), unread: true };
			for (const item of group.asked) answers.set(item.index, says);
			continue;
		}
		if (Array.isArray(seen)) decideSource(witness, seen, group.asked, group.known, answers);
		else for (const item of group.asked) answers.set(item.index, { cannotTell: seen.cannotTell });
	}
	return answers;
}

/** An operation's witness over the plans of one run, as the record asks it: by delivery index. */
export interface RunWitness {
	ask(asked: number[], known: number[], since: number): Promise<Map<number, PeachSays>>;
}

/** The witness of a run's deliveries (`plans`, by the record's delivery index). */
export function runWitness<Plan, Seen>(
	context: IExecuteFunctions,
	witness: PeachWitness<Plan, Seen>,
	plans: Plan[],
): RunWitness {
	return {
		ask: async (asked, known, since) =>
			await askWitness(
				context,
				witness,
				asked.map((index) => ({ index, plan: plans[index] })),
				known.map((index) => plans[index]),
				since,
			),
	};
}
