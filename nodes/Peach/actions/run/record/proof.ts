import { sleep } from 'n8n-workflow';

import { PROOF_WAIT_MS, PROOF_WAIT_SLOWEST_TIMES, STORE_CALLS_WINDOW_MS } from './n8n';

/**
 * The proof that an entry survived n8n's store (n8n.ts, fact 1 and PROOF_WAIT_MS): the row has no
 * lock and no compare-and-swap, so another process holding an older copy may write it back over what
 * a call just wrote. An entry is **proven** once a read of the row made PROOF_WAIT_MS or more after
 * the entry's last write still holds it: by the assumption stated with PROOF_WAIT_MS, every copy read
 * before that write has been written back by then. A read that finds it missing writes it again (n8n's
 * check records what it lacks), and it is proven anew from that write, up to PROOF_TRIES reads; then
 * it cannot be kept (RecordNotKept).
 *
 * What the proof does not close: an entry dropped by one older copy and put back by another copy
 * read in between, while a third process read the row without it, can be dropped by that third write
 * after the read; it needs three other writers' cycles overlapping within the wait.
 *
 * Proofs due at about the same time share one wait and one read: what the lanes claim together is
 * proven together, once per window of requests, never per delivery.
 */

/**
 * The slowest of the durations told to it in the current and the previous window (n8n.ts,
 * STORE_CALLS_WINDOW_MS): two numbers, whatever the number of calls.
 */
export class SlowestRecent {
	private current = 0;
	private previous = 0;
	private since: number;

	constructor(
		private readonly windowMs: number,
		now = Date.now(),
	) {
		this.since = now;
	}

	took(ms: number, now = Date.now()): void {
		this.turn(now);
		this.current = Math.max(this.current, ms);
	}

	slowest(now = Date.now()): number {
		this.turn(now);
		return Math.max(this.current, this.previous);
	}

	private turn(now: number): void {
		const elapsed = now - this.since;
		if (elapsed < this.windowMs) return;
		this.previous = elapsed < 2 * this.windowMs ? this.current : 0;
		this.current = 0;
		this.since = now;
	}
}

/** This process's calls to n8n's store, each timed by storeCalls.ts. */
export const storeCalls = new SlowestRecent(STORE_CALLS_WINDOW_MS);

/**
 * The proof's wait now: PROOF_WAIT_MS, or PROOF_WAIT_SLOWEST_TIMES times the slowest recent store
 * call of this process when that is longer (the assumption: n8n.ts, PROOF_WAIT_MS).
 */
export function proofWaitMs(): number {
	return Math.max(PROOF_WAIT_MS, Math.ceil(PROOF_WAIT_SLOWEST_TIMES * storeCalls.slowest()));
}

/** How many reads an entry gets: each one that finds it missing writes it again. */
export const PROOF_TRIES = 8;

/** An entry n8n's store lost at every read: the delivery it guards is not made. */
export class RecordNotKept extends Error {
	constructor(tries: number) {
		super(
			`another n8n process rewrote the node's record from an older copy ${tries} times in a row, dropping this delivery's claim each time, so the record could not be kept`,
		);
	}
}

/**
 * A call that records `items` in the row and answers which of them it lacked (now written again)
 * and when its write completed.
 */
export type RecordAndRead = (
	items: string[],
) => Promise<{ missing: Set<string>; writtenAt: number }>;

interface Asked {
	items: string[];
	tries: number;
	resolve: () => void;
	reject: (error: Error) => void;
}

/**
 * Proofs read together: the read is made at `due`, the latest of their writes plus the wait (the
 * longest of theirs).
 */
interface Round {
	due: number;
	wait: number;
	asked: Asked[];
}

export class Prover {
	private rounds: Round[] = [];

	constructor(private readonly read: RecordAndRead) {}

	/** Resolves once every one of `items`, last written at `writtenAt`, is proven. */
	async prove(items: string[], writtenAt: number): Promise<void> {
		if (!items.length) return;
		await new Promise<void>((resolve, reject) => {
			this.join({ items, tries: 0, resolve, reject }, writtenAt);
		});
	}

	private join(asked: Asked, writtenAt: number): void {
		const wait = proofWaitMs();
		const due = writtenAt + wait;
		// A round not yet read and due within a quarter of the wait takes it (read at the later time).
		const round = this.rounds.find((open) => Math.abs(open.due - due) <= wait / 4);
		if (round) {
			round.due = Math.max(round.due, due);
			round.wait = Math.max(round.wait, wait);
			round.asked.push(asked);
			return;
		}
		const fresh: Round = { due, wait, asked: [asked] };
		this.rounds.push(fresh);
		void this.readWhenDue(fresh);
	}

	private async readWhenDue(round: Round): Promise<void> {
		// Never longer than the wait itself (a clock set back does not hold a proof for long).
		const waitFor = (ms: number) => Math.min(Math.max(ms, 0), round.wait);
		let covered = round.due;
		await sleep(waitFor(round.due - Date.now()));
		while (round.due > covered) {
			const more = round.due - covered;
			covered = round.due;
			await sleep(waitFor(more));
		}
		this.rounds = this.rounds.filter((open) => open !== round);
		try {
			const { missing, writtenAt } = await this.read([
				...new Set(round.asked.flatMap((asked) => asked.items)),
			]);
			for (const asked of round.asked) {
				const lost = asked.items.filter((item) => missing.has(item));
				if (!lost.length) asked.resolve();
				else if (asked.tries + 1 >= PROOF_TRIES) asked.reject(new RecordNotKept(asked.tries + 1));
				else this.join({ ...asked, items: lost, tries: asked.tries + 1 }, writtenAt);
			}
		} catch (caught) {
			const error = caught instanceof Error ? caught : new Error(String(caught));
			for (const asked of round.asked) asked.reject(error);
		}
	}
}

/** Writes `items` and resolves once they are proven (one writer's entries: lifetime.ts). */
export async function writeProven(write: RecordAndRead, items: string[]): Promise<void> {
	const { writtenAt } = await write(items);
	await new Prover(write).prove(items, writtenAt);
}
