/**
 * A user input that cannot be sent. Pure helpers throw it; the run (actions/run/) turns it into a
 * NodeOperationError with the item index, so nothing is sent for that item.
 */
export class PeachInputError extends Error {
	constructor(
		readonly field: string,
		readonly value: unknown,
		readonly problem: string,
		readonly fix: string,
		/** The fix built from the expression the user wrote in the field, when it holds one. */
		readonly fixWith?: (expression: string) => string,
	) {
		super(
			value === undefined || value === null || value === ''
				? `${field} ${problem}`
				: `${field} ${describeValue(value)} ${problem}`,
		);
		this.name = 'PeachInputError';
	}

	/** Whether the field came out empty (no value, or nothing but spaces). */
	get isEmpty(): boolean {
		return (
			this.value === undefined ||
			this.value === null ||
			(typeof this.value === 'string' && this.value.trim() === '')
		);
	}
}

/** A value as the user would recognise it in a message, cut to 80 characters. */
export function describeValue(value: unknown): string {
	if (typeof value === 'string')
		return `"${value.length > 80 ? `${value.slice(0, 77)}...` : value}"`;
	if (value === undefined) return '(empty)';
	try {
		const text = JSON.stringify(value);
		return text.length > 80 ? `${text.slice(0, 77)}...` : text;
	} catch {
		return String(value);
	}
}
