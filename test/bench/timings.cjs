/**
 * Preloaded into the n8n processes of `npm run bench` (NODE_OPTIONS=--require): the wall time of n8n's
 * deduplication store calls (the delivery record's store calls) and of n8n's credential reads, summed
 * per process and written to $PEACH_BENCH_TIMINGS/<pid>.json every 100 ms, so that the bench can say
 * what a single-send execution spends in each. Changes nothing else; measures only.
 */
'use strict';

const Module = require('module');
const { mkdirSync, writeFileSync } = require('fs');
const { join } = require('path');

const folder = process.env.PEACH_BENCH_TIMINGS;
if (folder) {
	/** label → calls and milliseconds. */
	const totals = {};
	let changed = false;
	const timed = (prototype, name, label) => {
		const original = prototype[name];
		if (typeof original !== 'function' || original.peachBenchTimed) return;
		const wrapper = async function (...args) {
			const began = performance.now();
			try {
				return await original.apply(this, args);
			} finally {
				const entry = (totals[label] ??= { calls: 0, ms: 0 });
				entry.calls++;
				entry.ms += performance.now() - began;
				changed = true;
			}
		};
		wrapper.peachBenchTimed = true;
		prototype[name] = wrapper;
	};
	const load = Module._load;
	// A class a module exports, looked up among its own keys only (the exports of a module still
	// loading warn of any other lookup).
	const classOf = (exported, name) =>
		exported && Object.prototype.hasOwnProperty.call(exported, name) && exported[name]
			? exported[name].prototype
			: undefined;
	Module._load = function (...args) {
		const exported = load.apply(this, args);
		const dedup = classOf(exported, 'DeduplicationHelper');
		if (dedup) {
			timed(dedup, 'checkProcessedAndRecord', 'store');
			timed(dedup, 'removeProcessed', 'store');
			timed(dedup, 'getProcessedDataCount', 'store');
		}
		const credentials = classOf(exported, 'CredentialsHelper');
		if (credentials) timed(credentials, 'getDecrypted', 'credential');
		return exported;
	};
	mkdirSync(folder, { recursive: true });
	setInterval(() => {
		if (!changed) return;
		changed = false;
		writeFileSync(join(folder, `${process.pid}.json`), JSON.stringify(totals));
	}, 100).unref();
}
