import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { PeachInputError } from '../../../helpers/inputError';
import { isPlainObject } from '../../../helpers/json';
import { parseDateTime } from '../../../helpers/time';

/** Send and Wait's Options → Limit Wait Time: the option, and the end of the wait it gives. */

export const limitWaitTime: INodeProperties = {
	displayName: 'Limit Wait Time',
	name: 'limitWaitTime',
	type: 'fixedCollection',
	description:
		'Whether to stop waiting after a time: the workflow then goes on with the input items, without data (no answer)',
	default: { values: { limitType: 'afterTimeInterval', resumeAmount: 45, resumeUnit: 'minutes' } },
	options: [
		{
			displayName: 'Values',
			name: 'values',
			values: [
				{
					displayName: 'Limit Type',
					name: 'limitType',
					type: 'options',
					default: 'afterTimeInterval',
					options: [
						{
							name: 'After Time Interval',
							value: 'afterTimeInterval',
							description: 'Waits for a certain amount of time',
						},
						{
							name: 'At Specified Time',
							value: 'atSpecifiedTime',
							description: 'Waits until the set date and time',
						},
					],
				},
				{
					displayName: 'Amount',
					name: 'resumeAmount',
					type: 'number',
					typeOptions: { minValue: 0, numberPrecision: 2 },
					default: 1,
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Unit',
					name: 'resumeUnit',
					type: 'options',
					options: [
						{ name: 'Minutes', value: 'minutes' },
						{ name: 'Hours', value: 'hours' },
						{ name: 'Days', value: 'days' },
					],
					default: 'hours',
					displayOptions: { show: { limitType: ['afterTimeInterval'] } },
				},
				{
					displayName: 'Max Date and Time',
					name: 'maxDateAndTime',
					type: 'dateTime',
					default: '',
					description: 'Continue after this date and time',
					displayOptions: { show: { limitType: ['atSpecifiedTime'] } },
				},
			],
		},
	],
};

/** The latest end of a wait n8n can store (9999-12-31): beyond it a date is not a date to a database. */
const LATEST_WAIT_END = Date.UTC(9999, 11, 31);

/**
 * Where the limit ends, as given (`given`: the limit in the user's words, for an error): at its Max
 * Date and Time, or its amount of minutes, hours or days from `now`. A duration that is none is
 * refused.
 */
function limitEnd(
	values: IDataObject,
	timeZone: string,
	now: number,
): { end: Date; given: string } {
	if (values.limitType === 'atSpecifiedTime') {
		return {
			given: String(values.maxDateAndTime),
			end: parseDateTime(
				'Limit Wait Time → Max Date and Time',
				values.maxDateAndTime,
				timeZone,
			).toJSDate(),
		};
	}
	const amount = Number(values.resumeAmount);
	const unit = { minutes: 60_000, hours: 3_600_000, days: 86_400_000 }[
		String(values.resumeUnit) as 'minutes' | 'hours' | 'days'
	];
	const given = `${String(values.resumeAmount)} ${String(values.resumeUnit)}`;
	if (!Number.isFinite(amount) || amount < 0 || unit === undefined) {
		throw new PeachInputError(
			'Limit Wait Time',
			given,
			'is not a duration',
			'Give an amount of minutes, hours or days, e.g. 45 minutes.',
		);
	}
	return { given, end: new Date(now + amount * unit) };
}

/**
 * When the wait ends by itself (Options → Limit Wait Time), or never. A limit that is already over
 * (a past date, 0 minutes) or that is no date (100,000,000 days) is refused before anything is sent:
 * the person would get a link that is dead on arrival, or n8n an end it cannot keep.
 */
export function waitTillOf(limit: unknown, timeZone: string, now = Date.now()): Date {
	const values = isPlainObject(limit) && isPlainObject(limit.values) ? limit.values : undefined;
	if (!values) return WAIT_INDEFINITELY;
	const { end, given } = limitEnd(values, timeZone, now);
	if (!Number.isFinite(end.getTime()) || end.getTime() > LATEST_WAIT_END) {
		throw new PeachInputError(
			'Limit Wait Time',
			given,
			'ends at no date n8n can keep',
			'Give a shorter time (at most until the year 9999), or remove Limit Wait Time to wait without an end.',
		);
	}
	if (end.getTime() <= now) {
		throw new PeachInputError(
			'Limit Wait Time',
			given,
			'is already over: the link would be dead on arrival',
			'Give a time in the future (e.g. 45 minutes, or a later Max Date and Time).',
		);
	}
	return end;
}
