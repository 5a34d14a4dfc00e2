/**
 * What n8n's editor shows while Send and Wait waits: it puts the node's `waitingNodeTooltip` under
 * "Waiting for input" in place of the output (n8n 2.40.7, NodeDetailsView's node-waiting slot), the
 * data the node returned before it waits not being shown. The tooltip is an expression n8n evaluates
 * with the node's parameters (`$parameter`), as n8n's own Send and Wait nodes do: so it says who was
 * asked what. n8n runs this function's source, so it uses nothing from outside it.
 */
export const waitingTooltip = (parameters: Record<string, unknown>): string => {
	const read = (name: string): string => {
		try {
			const value = parameters[name];
			const shown =
				value !== null && typeof value === 'object'
					? ((value as Record<string, unknown>).cachedResultName ??
						(value as Record<string, unknown>).value)
					: value;
			if (typeof shown !== 'string' && typeof shown !== 'number') return '';
			return String(shown)
				.replace(/^=/, '')
				.replace(/[<>]/g, '')
				.replace(/\s+/g, ' ')
				.trim()
				.slice(0, 200);
		} catch {
			return '';
		}
	};
	const who = read('phoneNumber') || 'the contact';
	const question = read('message');
	const template = read('templateId');
	return `Waiting for ${who} to answer${question ? ` "${question}"` : ''}${
		template ? ` (template ${template})` : ''
	}. The workflow goes on when they answer on the page their WhatsApp link opens, or when the wait time runs out.`;
};

/** The node's waitingNodeTooltip: waitingTooltip, evaluated by n8n with the node's parameters. */
export const WAITING_TOOLTIP = `={{ (${waitingTooltip.toString()})($parameter) }}`;
