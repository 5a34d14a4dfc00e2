import type { TriggerPanelDefinition } from 'n8n-workflow';

/**
 * The left panel of the trigger's editor, in n8n 2.40's words for its own buttons and links (its
 * default text says "go to Peach and make an event happen", which Peach cannot do for a Test URL
 * without the token).
 */
const building =
	"<b>While building your workflow</b>, click the 'execute step' button, then post an event to the Test URL (under Webhook URLs, with <code>?token=</code> and your credential's secret added). The execution shows up in this editor; a delivery the node refuses shows on its Refused output, with the reason and the fix.";

const executions =
	'These executions will show up in the <a data-key="executions">executions list</a>, but not in the editor.';

export const TRIGGER_PANEL: TriggerPanelDefinition = {
	executionsHelp: {
		inactive: `${building}<br /> <br /> <b>Once you're happy with your workflow</b>, paste the Production URL with <code>?token=</code> and the secret into the Peach web app, and publish the workflow. Then every Peach event you selected runs it. ${executions}`,
		active: `${building}<br /> <br /> <b>Your workflow will also execute automatically</b>, since it's published: every Peach event you selected that reaches the Production URL runs it. ${executions}`,
	},
};
