import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { headerMediaFileFields, headerMediaModeField } from '../../descriptions/headerMedia';
import { uploadHeaderMedia } from '../templateSend/headerMedia';
import type { Delivery, PreparedDeliveries } from '../operation/node.type';
import type { LaunchPlan } from './launchBase';

/**
 * Broadcast → Launch's header files: the fields that choose them (one file for every contact or each
 * contact's own, from input items; each broadcast's own, to an audience), and their upload before the
 * first launch.
 */

/** Header Media as each plan offers it, then the binary field and file name of a file. */
export const launchHeaderMediaProperties: INodeProperties[] = [
	headerMediaModeField(
		[
			{
				name: 'From a Binary Field',
				value: 'binary',
				description:
					"Upload the first input item's file once and show it in every contact's template header",
			},
			{
				name: "From Each Item's Binary Field",
				value: 'binaryPerContact',
				description:
					"Upload each input item's file (once per distinct file) and show each contact its own",
			},
		],
		{ show: { recipients: ['items'] } },
	),
	headerMediaModeField(
		[
			{
				name: 'From a Binary Field',
				value: 'binary',
				description: "Upload each input item's file and show it in the header of its broadcast",
			},
		],
		{ show: { recipients: ['audience'] } },
	),
	...headerMediaFileFields(),
];

/**
 * The files to upload: an audience broadcast's own; for the broadcast from all items, the one every
 * contact shares (under its first contact) and each contact's own.
 */
function headerFilesOf(deliveries: Array<Delivery<LaunchPlan>>) {
	return deliveries.flatMap(({ inputs, plan }) => {
		if (plan.recipients === 'audience')
			return plan.headerMedia ? [{ itemIndex: inputs[0], media: plan.headerMedia }] : [];
		const own = plan.contacts.flatMap(({ itemIndex, headerMedia }) =>
			headerMedia ? [{ itemIndex, media: headerMedia }] : [],
		);
		return plan.headerMedia && plan.contacts.length
			? [{ itemIndex: plan.contacts[0].itemIndex, media: plan.headerMedia }, ...own]
			: own;
	});
}

/**
 * Launch's `stage`: uploads the header files once per distinct file before the first launch, then
 * keeps what can still go out: an audience broadcast whose file failed is not launched; the
 * broadcast from all items is not launched without its shared file, and a contact whose own file
 * failed is left out of it (each with its error).
 */
export async function uploadLaunchHeaderFiles(
	this: IExecuteFunctions,
	deliveries: Array<Delivery<LaunchPlan>>,
): Promise<PreparedDeliveries<LaunchPlan>> {
	const failed = await uploadHeaderMedia(this, headerFilesOf(deliveries));
	const staged: PreparedDeliveries<LaunchPlan> = { deliveries: [], problems: [] };
	for (const delivery of deliveries) {
		const { plan } = delivery;
		if (plan.recipients === 'audience') {
			const error = failed.get(delivery.inputs[0]);
			if (error) staged.problems.push({ itemIndex: delivery.inputs[0], error });
			else staged.deliveries.push(delivery);
			continue;
		}
		const shared =
			plan.headerMedia && plan.contacts.length && failed.get(plan.contacts[0].itemIndex);
		if (shared) {
			// The file every contact shares could not be uploaded: the broadcast cannot go out.
			staged.problems.push(...plan.contacts.map(({ itemIndex }) => ({ itemIndex, error: shared })));
			continue;
		}
		const contacts = plan.contacts.filter(({ itemIndex }) => {
			const error = failed.get(itemIndex);
			if (error) staged.problems.push({ itemIndex, error });
			return !error;
		});
		if (contacts.length)
			staged.deliveries.push({
				...delivery,
				inputs: contacts.map(({ itemIndex }) => itemIndex),
				plan: { ...plan, contacts },
			});
	}
	return staged;
}
