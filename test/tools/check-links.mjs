/**
 * Checks the links inside the repository: in README.md, CHANGELOG.md and docs/**\/*.md, every relative
 * link's file (or folder) must exist, and every `#anchor` must be a heading (or an `id`/`name`
 * attribute) of its target, by GitHub's slug rules. Links to other sites are not fetched. Part of
 * `npm run lint`; `node test/tools/check-links.mjs` alone prints every link checked.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The Markdown files checked: README.md, CHANGELOG.md and every .md under docs/. */
function markdownFiles() {
	const found = ['README.md', 'CHANGELOG.md'].filter((file) => existsSync(join(root, file)));
	const walk = (folder) => {
		for (const name of readdirSync(join(root, folder)).sort()) {
			const path = join(folder, name);
			if (statSync(join(root, path)).isDirectory()) walk(path);
			else if (name.endsWith('.md')) found.push(path);
		}
	};
	if (existsSync(join(root, 'docs'))) walk('docs');
	return found;
}

/** The text outside fenced code blocks (their lines blanked, so line numbers stay). */
function withoutFences(text) {
	let fence = null;
	return text.split('\n').map((line) => {
		const open = /^\s*(`{3,}|~{3,})/.exec(line);
		if (fence === null && open) {
			fence = open[1];
			return '';
		}
		if (fence !== null) {
			if (line.trim().startsWith(fence)) fence = null;
			return '';
		}
		return line;
	});
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to hyphens. */
function slugOf(heading) {
	const text = heading
		.replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/<[^>]+>/g, '')
		.trim()
		.toLowerCase();
	return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

const anchorCache = new Map();
/** Every anchor a Markdown file offers: its headings' slugs (repeats numbered -1, -2…) and ids. */
function anchorsOf(file) {
	if (anchorCache.has(file)) return anchorCache.get(file);
	const anchors = new Set();
	const seen = new Map();
	for (const line of withoutFences(readFileSync(join(root, file), 'utf8'))) {
		const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
		if (heading) {
			const slug = slugOf(heading[1]);
			const count = seen.get(slug) ?? 0;
			anchors.add(count === 0 ? slug : `${slug}-${count}`);
			seen.set(slug, count + 1);
		}
		for (const match of line.matchAll(/<[a-z]+[^>]*\s(?:id|name)="([^"]+)"/gi)) anchors.add(match[1]);
	}
	anchorCache.set(file, anchors);
	return anchors;
}

/** The links of one file: inline `[text](target)`, images, and reference definitions. */
function linksOf(file) {
	const links = [];
	withoutFences(readFileSync(join(root, file), 'utf8')).forEach((raw, index) => {
		const line = raw.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length));
		for (const match of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g))
			links.push({ line: index + 1, target: match[1].replace(/^<|>$/g, '') });
		const definition = /^\s{0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
		if (definition) links.push({ line: index + 1, target: definition[1] });
	});
	return links;
}

const problems = [];
let checked = 0;
for (const file of markdownFiles()) {
	for (const { line, target } of linksOf(file)) {
		if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …: another site
		checked++;
		const [pathPart, anchor] = target.split('#', 2);
		const path = decodeURIComponent(pathPart);
		const targetFile = path === '' ? file : normalize(join(dirname(file), path));
		const where = `${file}:${line}: ${target}`;
		if (relative(root, join(root, targetFile)).startsWith('..')) {
			problems.push(`${where}: points outside the repository`);
			continue;
		}
		if (!existsSync(join(root, targetFile))) {
			problems.push(`${where}: ${targetFile} does not exist`);
			continue;
		}
		if (anchor === undefined || anchor === '') continue;
		if (!targetFile.endsWith('.md')) {
			problems.push(`${where}: an anchor into ${targetFile}, which is not Markdown`);
			continue;
		}
		if (!anchorsOf(targetFile).has(decodeURIComponent(anchor)))
			problems.push(`${where}: ${targetFile} has no heading #${anchor}`);
	}
}

if (problems.length > 0) {
	console.error(`check-links: ${problems.length} broken of ${checked} links inside the repository:`);
	for (const problem of problems) console.error(`  ${problem}`);
	process.exit(1);
}
console.log(`check-links: ${checked} links inside the repository, none broken`);
