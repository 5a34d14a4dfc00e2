/**
 * From 1.0.0 each released node version is frozen: a saved workflow keeps its node version, so that
 * version's parameters, defaults, accepted values, outputs, credentials and webhooks may not change.
 * Each version's promise (contract.mts) is committed here as `<node>.v<version>.json`, each
 * credential's as `<credential>.json`, and compared with what the node and credential classes
 * describe now. docs/versioning.md says how to add a node version.
 *
 * `PEACH_FREEZE=1 npx vitest run test/unit/frozen` writes the fingerprint of a version that has none
 * yet, and records additions (a new optional parameter, a new option value) to an existing one; it
 * never rewrites what a fingerprint already promised.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { ICredentialType, IDisplayOptions, INodeTypeDescription } from 'n8n-workflow';
import { describe, expect, it } from 'vitest';

import { PeachMessagingApi } from '../../../credentials/PeachMessagingApi.credentials.ts';
import { PeachWebhookApi } from '../../../credentials/PeachWebhookApi.credentials.ts';
import { Peach } from '../../../nodes/Peach/Peach.node.ts';
import { PeachTrigger } from '../../../nodes/PeachTrigger/PeachTrigger.node.ts';
import {
	compareContracts,
	type ContractEntry,
	credentialContract,
	descriptionsOf,
	nodeContract,
	versionsOf,
} from './contract.mts';

const FROZEN_MESSAGE =
	'a changed default or parameter needs a new node version: see docs/versioning.md';

const freezing = process.env.PEACH_FREEZE === '1';
const fileOf = (name: string) => fileURLToPath(new URL(`./${name}.json`, import.meta.url));

const nodes = [new Peach(), new PeachTrigger()].flatMap((node) =>
	descriptionsOf(node).map(([version, description]) => ({
		name: `${description.name}.v${version}`,
		contract: nodeContract(description, version),
	})),
);
const credentials = ([new PeachMessagingApi(), new PeachWebhookApi()] as ICredentialType[]).map(
	(credential) => ({ name: credential.name, contract: credentialContract(credential) }),
);

/** The failure a fingerprint's check shows: the rule, then each broken promise on its own line. */
function failure(name: string, broken: string[], added: string[]): string {
	const lines = [`${name}: ${FROZEN_MESSAGE}`, ...broken.map((line) => `  broken: ${line}`)];
	if (added.length)
		lines.push(
			...added.map((line) => `  added: ${line}`),
			'  (an addition whose default keeps what the version did: record it with PEACH_FREEZE=1)',
		);
	return lines.join('\n');
}

function check(name: string, contract: ContractEntry[]) {
	const file = fileOf(name);
	if (!existsSync(file)) {
		if (freezing) writeFileSync(file, `${JSON.stringify(contract, null, '\t')}\n`);
		expect.soft(freezing, `${name}: no fingerprint ${file}; ${FROZEN_MESSAGE}`).toBe(true);
		return;
	}
	const frozen = JSON.parse(readFileSync(file, 'utf8')) as ContractEntry[];
	const { broken, added } = compareContracts(frozen, contract);
	if (freezing && broken.length === 0 && added.length)
		writeFileSync(file, `${JSON.stringify(contract, null, '\t')}\n`);
	const recorded = freezing && broken.length === 0;
	expect(
		recorded || (broken.length === 0 && added.length === 0),
		failure(name, broken, added),
	).toBe(true);
}

describe('released node versions and credentials are frozen', () => {
	it('every fingerprint committed is of a version a node still declares, or of a credential', () => {
		// A released version stays declared (removing it breaks the workflows saved with it).
		const committed = readdirSync(fileURLToPath(new URL('.', import.meta.url)))
			.filter((file) => file.endsWith('.json'))
			.map((file) => file.slice(0, -'.json'.length));
		const declared = [...nodes, ...credentials].map(({ name }) => name);
		expect(committed.length).toBeGreaterThanOrEqual(4);
		for (const name of committed) expect(declared, `${name}: ${FROZEN_MESSAGE}`).toContain(name);
	});

	it.each(nodes)('$name keeps its parameters, defaults and outputs', ({ name, contract }) =>
		check(name, contract),
	);

	it.each(credentials)('credential $name keeps its fields and defaults', ({ name, contract }) =>
		check(name, contract),
	);
});

describe('a node version’s contract', () => {
	const described = (version: number | number[], properties: INodeTypeDescription['properties']) =>
		({
			name: 'example',
			version,
			inputs: [],
			outputs: [],
			properties,
		}) as unknown as INodeTypeDescription;
	const width = (default_: number, show: IDisplayOptions['show']) => ({
		displayName: 'Width',
		name: 'width',
		type: 'number' as const,
		default: default_,
		displayOptions: { show },
	});

	it('holds for each version only the fields n8n shows in it (@version as n8n’s nodes write it)', () => {
		const description = described(
			[1, 1.1],
			[width(5, { '@version': [1] }), width(200, { '@version': [{ _cnd: { gte: 1.1 } }] })],
		);
		const defaultOf = (version: number) =>
			nodeContract(description, version).find((entry) => entry.key === 'parameter width')?.default;
		expect(versionsOf(description)).toEqual([1, 1.1]);
		expect([defaultOf(1), defaultOf(1.1)]).toEqual([5, 200]);
	});

	it('names a changed default and a renamed field as broken, a new option value as added', () => {
		const mode = (values: string[], name = 'mode') => ({
			displayName: 'Mode',
			name,
			type: 'options' as const,
			default: 'a',
			options: values.map((value) => ({ name: value, value })),
		});
		const before = nodeContract(described(1, [width(5, {}), mode(['a'])]), 1);
		const after = nodeContract(described(1, [width(6, {}), mode(['a', 'b'])]), 1);
		expect(compareContracts(before, after)).toEqual({
			broken: ['parameter width: default was 5, is 6'],
			added: ['parameter mode: values "b" added'],
		});
		const renamed = nodeContract(described(1, [width(5, {}), mode(['a'], 'kind')]), 1);
		expect(compareContracts(before, renamed).broken).toEqual([
			'parameter mode: removed or renamed (or shown elsewhere)',
		]);
	});
});
