/**
 * Runs `work` for every entry, at most `concurrency` at a time, each started in input order; resolves
 * when all are done. `work` keeps its own failures (a rejection would leave the others running).
 */
export async function inTurns<T>(
	entries: T[],
	concurrency: number,
	work: (entry: T) => Promise<void>,
): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < entries.length) await work(entries[next++]);
	};
	await Promise.all(
		Array.from({ length: Math.max(1, Math.min(concurrency, entries.length)) }, worker),
	);
}
