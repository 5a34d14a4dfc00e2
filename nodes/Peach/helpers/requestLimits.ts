/** Request Options' defaults and bounds: the editor fields and the requests read them from here. */
export const REQUEST_LIMITS = {
	/** Peach is asked to answer within this by default. */
	defaultTimeoutSeconds: 30,
	maxTimeoutSeconds: 300,
	/** Items sent at the same time by default (each contact's items still one after another). */
	defaultConcurrency: 5,
	maxConcurrency: 20,
} as const;
