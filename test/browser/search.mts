/**
 * The words people type in n8n's nodes panel, and the Peach action each one means: each word typed
 * after a manual trigger (the "What happens next?" panel, where action nodes are listed), Peach's rank
 * among the nodes found (1 = first), then Peach clicked and the action looked for among its actions.
 */
import type { Page } from 'playwright-core';

import { dismissPopups } from './editor.mts';

/** A word and the action of Peach's list it means. */
export const SEARCH_WORDS: Array<{ word: string; action: string }> = [
	{ word: 'send and wait', action: 'Send a template message and wait for approval or an answer' },
	{ word: 'approval', action: 'Send a template message and wait for approval or an answer' },
	{ word: 'ask for approval', action: 'Send a template message and wait for approval or an answer' },
	{ word: 'human in the loop', action: 'Send a template message and wait for approval or an answer' },
	{ word: 'whatsapp approval', action: 'Send a template message and wait for approval or an answer' },
	{ word: 'refund', action: 'Refund an order' },
	{ word: 'order', action: 'Create an order' },
	{ word: 'broadcast', action: 'Launch a broadcast' },
];

export interface SearchResult {
	word: string;
	/** Peach's place among the nodes found (1 = first), or null when it is not found. */
	rank: number | null;
	/** The nodes found, in the order shown (the first ten). */
	found: string[];
	/** The action's place in Peach's action list (1 = first), or null when it is not there. */
	actionAt: number | null;
	/**
	 * The word typed again in the search box of Peach's actions (when n8n gives one): the action's
	 * place among the actions found, or null.
	 */
	actionSearchAt: number | null;
}

const names = async (page: Page) =>
	(await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()).map((name) =>
		name.trim(),
	);

/** Waits until the panel's list stops changing (its search is debounced), then reads it. */
async function settled(page: Page): Promise<string[]> {
	let last = '';
	for (let tries = 0; tries < 20; tries++) {
		await page.waitForTimeout(300);
		const now = await names(page);
		if (now.length && now.join('|') === last) return now;
		last = now.join('|');
	}
	return await names(page);
}

/** One word: a new workflow, a manual trigger, the word typed in the panel, Peach clicked. */
async function searchOne(page: Page, url: string, word: string, action: string) {
	const search = page.locator('input[data-test-id="node-creator-search-bar"]');
	const item = (name: string) =>
		page.locator('[data-test-id="node-creator-item-name"]').getByText(name, { exact: true });
	await page.goto(`${url}/workflow/new`);
	await page.locator('[data-test-id="canvas-add-button"]').first().waitFor({ timeout: 60_000 });
	await dismissPopups(page);
	await page.locator('[data-test-id="canvas-add-button"]').first().click();
	await search.fill('manual');
	await item('Trigger manually').first().click();
	await page.locator('[data-test-id="canvas-handle-plus"]').first().click();
	await search.fill(word);
	const found = await settled(page);
	const at = found.indexOf('Peach');
	const result: SearchResult = {
		word,
		rank: at === -1 ? null : at + 1,
		found: found.slice(0, 10),
		actionAt: null,
		actionSearchAt: null,
	};
	if (at === -1) return result;
	await item('Peach').first().click();
	await item(action)
		.first()
		.waitFor({ timeout: 15_000 })
		.catch(() => undefined);
	const actions = (await settled(page)).filter((name) => name !== 'Peach');
	const place = actions.indexOf(action);
	result.actionAt = place === -1 ? null : place + 1;
	if (await search.isVisible().catch(() => false)) {
		await search.fill(word);
		const filtered = (await settled(page)).filter((name) => name !== 'Peach');
		const at = filtered.indexOf(action);
		result.actionSearchAt = at === -1 ? null : at + 1;
	}
	await page.keyboard.press('Escape');
	return result;
}

/** Every word of SEARCH_WORDS, in order. */
export async function searchWords(page: Page, url: string): Promise<SearchResult[]> {
	const results: SearchResult[] = [];
	for (const { word, action } of SEARCH_WORDS)
		results.push(await searchOne(page, url, word, action));
	return results;
}
