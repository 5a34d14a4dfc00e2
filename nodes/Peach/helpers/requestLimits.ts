/** Request Options' defaults and bounds: the editor fields and the requests read them from here. */
export const REQUEST_LIMITS = {
	/** Peach is asked to answer within this by default. */
	defaultTimeoutSeconds: 30,
	maxTimeoutSeconds: 300,
	/**
	 * The most requests with Peach at once by default: the ceiling of the adaptive width (width.ts);
	 * each contact's items still one after another. Chosen from `npm run bench` (docs/performance.md).
	 */
	defaultConcurrency: 200,
	maxConcurrency: 200,
} as const;
