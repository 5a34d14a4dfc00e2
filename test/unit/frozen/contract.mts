/**
 * What a released node version promises a saved workflow, as a list of entries: every parameter
 * (nested ones by their path) with its type, default, whether it is required, where it is shown and
 * the values it accepts, plus the node's name, inputs, outputs, credentials and webhooks. Wording
 * (display names, descriptions, hints, placeholders) is not in it: it may change in a version.
 *
 * frozen.test.mts compares each version's entries with the fingerprint committed beside it
 * (`<node>.v<version>.json`, `<credential>.json`); docs/versioning.md says what to do when it fails.
 */
import type {
	ICredentialType,
	INodeProperties,
	INodePropertyCollection,
	INodePropertyOptions,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

/** One promise of a node version or credential. `key` names it; the rest is what may not change. */
export interface ContractEntry {
	key: string;
	type?: string;
	default?: unknown;
	required?: boolean;
	/** The values an options or multiOptions parameter accepts (a version may add values). */
	values?: unknown[];
	/** A resource locator's modes (a version may add modes). */
	modes?: string[];
	value?: unknown;
}

type Condition = number | { _cnd: Record<string, unknown> };

/** Whether one `@version` condition of n8n's displayOptions holds for `version`. */
function versionMatches(condition: Condition, version: number): boolean {
	if (typeof condition === 'number') return condition === version;
	const [[operator, operand]] = Object.entries(condition._cnd);
	const value = operand as number & { from: number; to: number };
	switch (operator) {
		case 'eq':
			return version === value;
		case 'not':
			return version !== value;
		case 'gte':
			return version >= value;
		case 'lte':
			return version <= value;
		case 'gt':
			return version > value;
		case 'lt':
			return version < value;
		case 'between':
			return version >= value.from && version <= value.to;
		default:
			throw new Error(`@version condition ${operator} is not known to contract.mts`);
	}
}

/** Whether n8n shows an element with these displayOptions in node version `version`. */
function shownIn(displayOptions: INodeProperties['displayOptions'], version: number): boolean {
	// n8n's docs write `'@version': 2`, its own nodes `'@version': [2]` or `[{ _cnd: { gte: 2 } }]`.
	const list = (value: unknown) =>
		value === undefined ? undefined : ((Array.isArray(value) ? value : [value]) as Condition[]);
	const show = list(displayOptions?.show?.['@version']);
	const hide = list(displayOptions?.hide?.['@version']);
	if (show && !show.some((condition) => versionMatches(condition, version))) return false;
	return !hide?.some((condition) => versionMatches(condition, version));
}

/** displayOptions without `@version` (the version is the file's), keys sorted; undefined when empty. */
function whereShown(displayOptions: INodeProperties['displayOptions']): string {
	const parts: string[] = [];
	for (const kind of ['show', 'hide'] as const) {
		const conditions = Object.entries(displayOptions?.[kind] ?? {})
			.filter(([name]) => name !== '@version')
			.sort(([a], [b]) => a.localeCompare(b));
		if (conditions.length) parts.push(`${kind} ${JSON.stringify(Object.fromEntries(conditions))}`);
	}
	return parts.length ? ` [${parts.join('; ')}]` : '';
}

function sortedValues(values: unknown[]): unknown[] {
	return [...values].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

/** The entries of a list of parameters, nested collections by their path (`parent.child`). */
function parameterEntries(
	properties: INodeProperties[],
	version: number,
	prefix: string,
): ContractEntry[] {
	const entries: ContractEntry[] = [];
	for (const property of properties) {
		if (!shownIn(property.displayOptions, version)) continue;
		// A nested parameter's path carries where its parent is shown: one name may be a field of
		// several operations, each its own promise.
		const path = `${prefix}${property.name}${whereShown(property.displayOptions)}`;
		const entry: ContractEntry = {
			key: `parameter ${path}`,
			type: property.type,
			default: property.default,
		};
		if (property.required) entry.required = true;
		if (property.type === 'resourceLocator')
			entry.modes = (property.modes ?? []).map((mode) => mode.name).sort();
		const options = property.options ?? [];
		if (property.type === 'options' || property.type === 'multiOptions') {
			entry.values = sortedValues(
				(options as INodePropertyOptions[]).map((option) => option.value),
			);
		} else if (property.type === 'collection') {
			entries.push(...parameterEntries(options as INodeProperties[], version, `${path}.`));
		} else if (property.type === 'fixedCollection') {
			for (const group of options as INodePropertyCollection[])
				entries.push(...parameterEntries(group.values, version, `${path}.${group.name}.`));
		}
		entries.push(entry);
	}
	return entries;
}

/** What node version `version` of `description` promises. */
export function nodeContract(description: INodeTypeDescription, version: number): ContractEntry[] {
	const node: ContractEntry[] = [
		{ key: 'node name', value: description.name },
		{ key: 'node inputs', value: description.inputs },
		{ key: 'node outputs', value: description.outputs },
		{ key: 'node usable as a tool', value: description.usableAsTool === true },
		...(description.credentials ?? []).map((credential) => ({
			key: `node credential ${credential.name}${whereShown(credential.displayOptions)}`,
			required: credential.required === true,
		})),
		...(description.webhooks ?? []).map((webhook) => ({
			key: `node webhook ${webhook.name} ${String(webhook.httpMethod)}`,
			value: { path: webhook.path, isFullPath: webhook.isFullPath === true },
		})),
	];
	return sortEntries([...node, ...parameterEntries(description.properties, version, '')]);
}

/** What a credential type promises: its name and its fields. */
export function credentialContract(credential: ICredentialType): ContractEntry[] {
	return sortEntries([
		{ key: 'credential name', value: credential.name },
		...parameterEntries(credential.properties, 1, ''),
	]);
}

/** The versions a node description declares, oldest first. */
export function versionsOf(description: INodeTypeDescription): number[] {
	return (Array.isArray(description.version) ? description.version : [description.version]).sort(
		(a, b) => a - b,
	);
}

/** Every released node version's description: a VersionedNodeType's per version, else the one. */
export function descriptionsOf(node: INodeType): Array<[number, INodeTypeDescription]> {
	const { nodeVersions } = node as { nodeVersions?: Record<number, INodeType> };
	if (nodeVersions)
		return Object.entries(nodeVersions).map(([version, type]) => [
			Number(version),
			type.description,
		]);
	return versionsOf(node.description).map((version) => [version, node.description]);
}

function sortEntries(entries: ContractEntry[]): ContractEntry[] {
	const keys = entries.map((entry) => entry.key);
	const twice = keys.filter((key, at) => keys.indexOf(key) !== at);
	if (twice.length) throw new Error(`contract entries named twice: ${twice.join(', ')}`);
	return entries.sort((a, b) => a.key.localeCompare(b.key));
}

/** What `frozen` promised that `current` breaks, and what `current` adds; each a sentence. */
export function compareContracts(
	frozen: ContractEntry[],
	current: ContractEntry[],
): { broken: string[]; added: string[] } {
	const now = new Map(current.map((entry) => [entry.key, entry]));
	const before = new Map(frozen.map((entry) => [entry.key, entry]));
	const broken: string[] = [];
	const added: string[] = [];
	for (const entry of frozen) {
		const later = now.get(entry.key);
		if (!later) {
			broken.push(`${entry.key}: removed or renamed (or shown elsewhere)`);
			continue;
		}
		for (const field of ['type', 'default', 'required', 'value'] as const) {
			if (JSON.stringify(entry[field]) !== JSON.stringify(later[field]))
				broken.push(
					`${entry.key}: ${field} was ${JSON.stringify(entry[field])}, is ${JSON.stringify(later[field])}`,
				);
		}
		for (const field of ['values', 'modes'] as const) {
			const had = (entry[field] ?? []).map((value) => JSON.stringify(value));
			const has = (later[field] ?? []).map((value) => JSON.stringify(value));
			const lost = had.filter((value) => !has.includes(value));
			const gained = has.filter((value) => !had.includes(value));
			if (lost.length) broken.push(`${entry.key}: ${field} ${lost.join(', ')} removed`);
			if (gained.length) added.push(`${entry.key}: ${field} ${gained.join(', ')} added`);
		}
	}
	for (const entry of current) if (!before.has(entry.key)) added.push(`${entry.key}: new`);
	return { broken, added };
}
