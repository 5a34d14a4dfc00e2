import type { EarlierOutcome } from '../../operation/node.type';
import type { PeachSays, RunWitness } from './peachWitness';
import type { FromStore } from './readBack';

/**
 * In a later try, what an operation's own witness (peachWitness.ts: an order's refunds, an order made
 * with the user's ID, a broadcast) decides of the deliveries the record leaves in doubt: an outcome
 * left unknown (a claim without its outcome, a record that cannot say), and, where the Retry table
 * says the record may have lost it (`notShown`), a delivery it shows nothing of. Where Peach shows it, it
 * was made (`alreadySent`, with what Peach shows); where Peach clearly shows none, an unknown one may
 * be made; where Peach cannot tell, an unknown one stays unknown, with Peach's reason beside the
 * record's. What the record shows nothing of stays the record's to decide (made), unless Peach could
 * not be read or the operation is made only on evidence (`onEvidence`): then it is unknown.
 */

const CRASH_REASON =
	'The request was under way when the n8n process running this execution stopped (for example a worker that was killed), so whether Peach got it is unknown.';
/**
 * An earlier request that ended this recently (a timeout, a server error) may still be under way in
 * Peach: Peach showing none of it yet does not let it be made again (Retry On Fail's next try).
 */
export const SETTLE_MS = 120_000;
const TOO_SOON =
	'Peach shows none of it yet, but the earlier request ended less than 2 minutes ago and Peach may still be processing it.';
const NO_TIME =
	'Peach shows none of it yet, but nothing says when the request was made, so Peach may still be processing it.';
const UNWITNESSED = 'Peach lists nothing of such deliveries, so it cannot say either.';
const NOTHING_SHOWN =
	"n8n's record of this execution shows nothing of it (it may never have been made, or the record lost it), so it is made again only once Peach says it is not there.";

export interface PeachDecides {
	/** The operation's witness over this run's deliveries. */
	witness: RunWitness;
	earlierOf: Array<EarlierOutcome | undefined>;
	fromStore: FromStore[];
	/**
	 * Whether a delivery the record shows nothing of is in doubt (retryTable.ts, `notShown`): in a
	 * Retry whose store shows other entries of this run, or on n8n 1.x, whose crash Retry cannot find
	 * the record. Where the store shows nothing of the run, the delivery was never claimed: it is made.
	 */
	askNotShown: boolean;
	/** From when Peach is asked what was made. */
	since: number;
	/**
	 * The deliveries are made only on evidence (DeliveringOperation.madeOnEvidence): in a Retry, one
	 * the record shows nothing of, where Peach cannot tell, is `outcomeUnknown` rather than made.
	 */
	onEvidence: boolean;
}

/** Whether the record leaves a delivery in doubt: unknown, or (in a Retry) shown nothing of. */
function inDoubt(p: PeachDecides, index: number): boolean {
	const earlier = p.earlierOf[index];
	if (earlier) return earlier.outcome === 'unknown';
	return p.askNotShown && p.fromStore[index] === 'notReached';
}

/**
 * Whether an earlier try's request may still be under way in Peach: it ended less than SETTLE_MS ago,
 * or nothing says when (a crash's record: the request was under way when the process stopped, maybe
 * a moment before this Retry). Peach showing none of it then is no evidence: it stays unknown.
 */
const mayBeUnderWay = (earlier: EarlierOutcome) =>
	earlier.at === null || Date.now() - Date.parse(earlier.at) < SETTLE_MS;

/** The earlier outcome of a delivery Peach shows made. */
function shownOutcome(
	says: Extract<PeachSays, { shown: unknown }>,
	earlier: EarlierOutcome | undefined,
): EarlierOutcome {
	const { id, status } = says.shown;
	return {
		outcome: 'sent',
		at: earlier?.at ?? null,
		json: says.shown,
		peachNote: says.note,
		...(typeof id === 'string' || typeof id === 'number'
			? { peach: { id: String(id), status: typeof status === 'string' ? status : null } }
			: {}),
	};
}

/**
 * Asks the operation's witness about the deliveries in doubt and fills in `earlierOf`; answers the
 * deliveries whose unknown outcome Peach clearly shows not made (now to be made: their earlier claim
 * is this run's to keep).
 */
export async function peachDecides(p: PeachDecides): Promise<Set<number>> {
	const cleared = new Set<number>();
	const asked = p.earlierOf.map((_, index) => index).filter((index) => inDoubt(p, index));
	if (!asked.length) return cleared;
	const known = p.earlierOf
		.map((earlier, index) => (earlier?.outcome === 'sent' ? index : -1))
		.filter((index) => index !== -1);
	const answers = await p.witness.ask(asked, known, p.since);
	for (const index of asked) {
		const says = answers.get(index);
		const earlier = p.earlierOf[index];
		if (!says) continue;
		if ('shown' in says) p.earlierOf[index] = shownOutcome(says, earlier);
		else if ('absent' in says && earlier && mayBeUnderWay(earlier))
			p.earlierOf[index] = {
				...earlier,
				reason: `${earlier.reason ?? CRASH_REASON} ${earlier.at === null ? NO_TIME : TOO_SOON}`,
			};
		else if ('absent' in says) {
			if (earlier) cleared.add(index);
			p.earlierOf[index] = undefined;
		} else if (earlier)
			p.earlierOf[index] = {
				...earlier,
				reason: `${earlier.reason ?? CRASH_REASON} ${says.cannotTell}`,
				...(says.unread ? { peachUnread: true } : {}),
			};
		else if (says.unread || p.onEvidence)
			p.earlierOf[index] = {
				outcome: 'unknown',
				at: null,
				reason: `${NOTHING_SHOWN} ${says.cannotTell}`,
				...(says.unread ? { peachUnread: true as const } : {}),
			};
	}
	return cleared;
}

/**
 * Made only on evidence, with no witness in Peach (an automation's run: Peach lists none): in a
 * Retry, each delivery the record may have lost (the Retry table's notShown) is `outcomeUnknown`,
 * never made again by itself.
 */
export function unwitnessedStayUnknown(
	earlierOf: Array<EarlierOutcome | undefined>,
	fromStore: FromStore[],
): void {
	fromStore.forEach((from, index) => {
		if (earlierOf[index] === undefined && from === 'notReached')
			earlierOf[index] = {
				outcome: 'unknown',
				at: null,
				reason: `${NOTHING_SHOWN} ${UNWITNESSED}`,
			};
	});
}
