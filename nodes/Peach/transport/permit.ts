/**
 * The delivering run's word (actions/run/delivering.ts) that every input item was read and checked
 * before the first request that can deliver a message or move money. A request marked with it is
 * never sent again once Peach may have taken it (only a 429, which Peach did not take, is sent again
 * after Retry-After), and an unclear failure of it says it may already have happened. Only that run
 * issues one (npm run lint checks that nothing else imports this file), so an operation cannot
 * deliver before all items are checked.
 */
export class DeliveryPermit {
	/** Makes the type nominal: an object of the same shape is not a permit. */
	declare private readonly issuedByTheDeliveringRun: true;
}
