import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { keyValueCollection } from '../../descriptions/fields';
import { PeachInputError } from '../../helpers/inputError';
import { pairsToStringMap, rowsOf } from '../../helpers/payload';

/** Data mappings: how event data fills the recipient and the automation's variables (Create and Update). */
export const dataMappingsField: INodeProperties = {
	displayName: 'Data Mappings',
	name: 'dataMappings',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Data Mapping',
	default: {},
	description:
		'How event data maps to the recipient and to automation variables. Replaces all existing mappings.',
	options: [
		{
			displayName: 'Mapping',
			name: 'mappings',
			values: [
				{
					displayName: 'Mapping For',
					name: 'mappingFor',
					type: 'options',
					options: [
						{ name: 'Recipient', value: 'recipient' },
						{ name: 'Variable', value: 'variable' },
					],
					default: 'recipient',
					description:
						'Recipient: who receives the messages (keys phone_number, name, country_code, language). Variable: values usable as {{key}} in steps.',
				},
				keyValueCollection('fields', 'Fields', {
					description: 'Each key and the JSONPath into the event that fills it',
					keyName: 'Key',
					keyPlaceholder: 'e.g. phone_number',
					valuePlaceholder: 'e.g. $.customer.phone',
				}),
			],
		},
	],
};

/** `data_mappings` from the fixedCollection rows. */
export function dataMappingsFrom(collection: unknown): IDataObject[] {
	return rowsOf(collection, 'mappings').map((row, index) => {
		const mapping = row as unknown as IDataObject;
		const mappingFor = typeof mapping.mappingFor === 'string' ? mapping.mappingFor : '';
		if (mappingFor === '') {
			throw new PeachInputError(
				`Data Mappings row ${index + 1} → Mapping For`,
				mappingFor,
				'is empty',
				'Choose Recipient or Variable.',
			);
		}
		return {
			mapping_for: mappingFor,
			value: pairsToStringMap(`Data Mappings row ${index + 1} → Fields`, rowsOf(mapping.fields)),
		};
	});
}
