import { describe, expect, it } from 'vitest';

import { omitEmpty, outputOf, pairsToStringMap } from '../../../nodes/Peach/helpers/payload';

/** Metadata with two rows named `key` (values a and b). */
const twice = (key: string) => () =>
	pairsToStringMap('Metadata', [
		{ key, value: 'a' },
		{ key, value: 'b' },
	]);

describe('key/value rows', () => {
	it('makes string maps, writing numbers as text', () => {
		expect(
			pairsToStringMap('Metadata', [
				{ key: 'plan', value: 'gold' },
				{ key: 'visits', value: 3 },
			]),
		).toEqual({
			plan: 'gold',
			visits: '3',
		});
	});

	it('refuses empty and duplicate names, and object values', () => {
		expect(() => pairsToStringMap('Metadata', [{ key: '', value: 'x' }])).toThrow(
			'has a row without a name',
		);
		expect(twice('a')).toThrow('Metadata "a" is used twice');
	});

	it('omits undefined, empty strings and empty objects', () => {
		expect(omitEmpty({ a: undefined, b: '', c: {}, d: 0, e: 'x', f: { g: 1 } })).toEqual({
			d: 0,
			e: 'x',
			f: { g: 1 },
		});
	});
});

describe('review defects', () => {
	it('a key named like an Object.prototype member is an ordinary key (not "used twice")', () => {
		const rows = ['constructor', 'toString', 'valueOf', '__proto__'].map((key) => ({
			key,
			value: 'x',
		}));
		const metadata = pairsToStringMap('Metadata', rows);
		expect(Object.keys(metadata)).toEqual(['constructor', 'toString', 'valueOf', '__proto__']);
		expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
		expect(JSON.parse(JSON.stringify(metadata))).toEqual(
			JSON.parse('{"constructor":"x","toString":"x","valueOf":"x","__proto__":"x"}'),
		);
		expect(twice('toString')).toThrow('Metadata "toString" is used twice');
	});

	it('an answer is output as it came', () => {
		expect(outputOf({ id: 'x' })).toEqual({ id: 'x' });
		expect(outputOf([{ id: 'a' }, 'b'])).toEqual([{ id: 'a' }, { response: 'b' }]);
		expect(outputOf('')).toEqual({});
		expect(outputOf('accepted')).toEqual({ response: 'accepted' });
	});
});
