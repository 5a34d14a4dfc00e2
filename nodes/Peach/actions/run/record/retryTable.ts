import type { EarlierOutcome } from '../../operation/node.type';
import type { FromStore } from './readBack';

/**
 * How a later try (Retry On Fail, the editor's Retry, the Retry of a crashed execution) decides each
 * delivery of this node, in one table (resolve.ts applies it; test/unit/actions/run/record/
 * retryTable.test.ts reads it row by row). The record's rows rest on the proof (proof.ts): a claim is
 * proven in n8n's store before its request, and nothing that replaces it removes it before being
 * proven, so a delivery the store shows nothing of was never requested and is made without asking
 * Peach; Peach answers only for this node's own claimed deliveries. What moves money or launches
 * (DeliveringOperation.madeOnEvidence) is not made on that proof alone: in a Retry, its
 * `notShown` deliveries go on to the operation's own witness (peachDecides.ts), and where Peach
 * cannot tell they are `outcomeUnknown`.
 */

const CRASH_REASON =
	'The request was under way when the n8n process running this execution stopped (for example a worker that was killed), so whether Peach got it is unknown.';
const RECORD_SAYS_SENT_NOTE =
	"n8n's record of the execution says it was sent, but Peach does not list it: check the contact's conversation in Peach.";
const CANNOT_TELL_REASON =
	"n8n's record of this execution cannot say whether it was sent (rows changed since, or the record was cut), and Peach's list of template messages does not name contacts and templates, so it cannot tell either.";
const NOT_SHOWN_REASON =
	"n8n's record of this execution shows nothing of it (the record may have lost it, or on n8n 1.x cannot be found), so it is sent again only once Peach's list says it is not there.";

/** What the record says of a delivery: the node context first, else n8n's store (a row of the table). */
export type RecordSays =
	| 'contextSent'
	| 'contextUnknown'
	| 'storeSent'
	| 'storeUnknown'
	/** Covered by a folded part or a summary the record cannot match to it. */
	| 'storeCannotSay'
	| 'storeRefused'
	/** No claim and nothing covering it, in a run the store shows nothing of: never requested. */
	| 'neverClaimed'
	/**
	 * No claim and nothing covering it, in a Retry of a run the store shows other entries of (a
	 * record the proof does not cover may have lost it: a Loop Over Items batch shifted by a gained
	 * row, entries removed by name with an earlier try's record), or on n8n 1.x, where a crash's
	 * Retry cannot find the record at all.
	 */
	| 'notShown'
	/** The store was not read (Retry On Fail on n8n 2.x: the node context knows). */
	| 'notRead';

/** What Peach's list says of it (a column of the table). */
export type PeachSays = 'lists' | 'notListed' | 'cannotTell' | 'unreadable' | 'tooFewListed';

/** `sent`: not made again (alreadySent); `make`: made now; `unknown…`: outcomeUnknown, with why. */
export type Decision =
	| 'sent'
	| 'make'
	| 'unknownAsBefore'
	| 'unknownCrash'
	| 'unknownRecordSaysSent'
	| 'unknownCannotTell'
	| 'unknownNotShown'
	| 'unknownTooFew';

const row = (decisions: [Decision, Decision, Decision, Decision, Decision]) => ({
	lists: decisions[0],
	notListed: decisions[1],
	cannotTell: decisions[2],
	unreadable: decisions[3],
	tooFewListed: decisions[4],
});

/**
 * How a later try decides each delivery of this node: what the record says (rows) × what Peach's
 * list says (columns: lists it, does not list it, cannot tell, unreadable, lists too few for this
 * contact and template). A delivery Peach is not asked about (refused, never claimed, not read) has
 * one decision in every column.
 */
// prettier-ignore
export const RETRY_DECIDES: Record<RecordSays, Record<PeachSays, Decision>> = {
	//                 lists    notListed                cannotTell           unreadable           tooFewListed
	contextSent:    row(['sent', 'sent',                  'sent',              'sent',              'sent']),
	contextUnknown: row(['sent', 'unknownAsBefore',       'unknownAsBefore',   'unknownAsBefore',   'unknownTooFew']),
	storeSent:      row(['sent', 'unknownRecordSaysSent', 'sent',              'sent',              'sent']),
	storeUnknown:   row(['sent', 'unknownCrash',          'unknownCrash',      'unknownCrash',      'unknownTooFew']),
	storeCannotSay: row(['sent', 'make',                  'unknownCannotTell', 'unknownCannotTell', 'unknownTooFew']),
	storeRefused:   row(['make', 'make',                  'make',              'make',              'make']),
	neverClaimed:   row(['make', 'make',                  'make',              'make',              'make']),
	notShown:       row(['sent', 'make',                  'make',              'unknownNotShown',   'unknownTooFew']),
	notRead:        row(['make', 'make',                  'make',              'make',              'make']),
};

const FROM_STORE: Record<FromStore, RecordSays> = {
	sent: 'storeSent',
	unknown: 'storeUnknown',
	unverifiable: 'storeCannotSay',
	notSent: 'storeRefused',
	notReached: 'neverClaimed',
	absent: 'notRead',
};

/**
 * The table's row of a delivery: what the node context knows of it (`known`), else what n8n's store
 * says (`from`); `how`: whether this is a Retry, whether the store names this execution (n8n 2.x),
 * and whether it showed entries of this run.
 */
export function recordSays(
	known: EarlierOutcome | undefined,
	from: FromStore,
	how: { retry: boolean; findsItsRecord: boolean; runSeen: boolean },
): RecordSays {
	if (known) return known.outcome === 'sent' ? 'contextSent' : 'contextUnknown';
	if (from === 'notReached' && how.retry && (how.runSeen || !how.findsItsRecord)) return 'notShown';
	return FROM_STORE[from];
}

const REASONS: Partial<Record<Decision, string>> = {
	unknownCrash: CRASH_REASON,
	unknownRecordSaysSent: RECORD_SAYS_SENT_NOTE,
	unknownCannotTell: CANNOT_TELL_REASON,
	unknownNotShown: NOT_SHOWN_REASON,
};

/**
 * Why an outcome is unknown, for a decision (`unknownTooFew`'s reason names Peach's count, so the
 * caller gives it): as an earlier try said (`unknownAsBefore`), else the table's.
 */
export function reasonOf(decision: Decision, known: EarlierOutcome | undefined): string {
	return REASONS[decision] ?? known?.reason ?? CRASH_REASON;
}
