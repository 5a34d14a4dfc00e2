import { getAdditionalKeys } from 'n8n-core';
import type { IRunExecutionData, IWorkflowExecutionCustomData } from 'n8n-workflow';

/**
 * An execution's data as n8n keeps it, for what a node stores in it: the custom data (saved with a
 * waiting execution, read again when its link is opened). The custom data is n8n-core's own, with its
 * limits: 10 keys, of letters, digits and underscores, anything else dropped silently outside manual
 * runs.
 */

/** The execution's data as n8n saves it (JSON) while it waits. */
export interface WaitingExecution {
	data: IRunExecutionData;
	mode: string;
	n8nLine: 1 | 2;
}

export function newWaitingExecution(n8nLine: 1 | 2 = 2, mode = 'webhook'): WaitingExecution {
	return {
		data: { resultData: { runData: {} } } as unknown as IRunExecutionData,
		mode,
		n8nLine,
	};
}

/** n8n-core's $execution for this execution's data (what expressions and the data proxy see). */
export function executionKeys(execution: WaitingExecution) {
	return getAdditionalKeys(
		{
			executionId: '231',
			webhookWaitingBaseUrl: 'https://n8n.test/webhook-waiting',
			formWaitingBaseUrl: 'https://n8n.test/form-waiting',
		} as never,
		execution.mode as never,
		execution.data,
	);
}

export function customDataOf(execution: WaitingExecution): IWorkflowExecutionCustomData {
	return (executionKeys(execution).$execution as { customData: IWorkflowExecutionCustomData })
		.customData;
}
