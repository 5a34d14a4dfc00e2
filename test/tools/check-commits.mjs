/**
 * Part of npm run lint: every commit after BASE has a subject a person can read in one line, at most
 * 72 characters (docs/commits.md). Merge commits are skipped (GitHub names a pull request's merge
 * commit itself). Without BASE in the clone (a shallow clone, a tarball) it says so and passes.
 */
import { execFileSync } from 'node:child_process';

/** The last commit before the rule: on main, 2026-12-03. */
const BASE = 'cca26b4';
const LONGEST = 72;

function git(...args) {
	return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
}

let log;
try {
	git('cat-file', '-e', `${BASE}^{commit}`);
	log = git('log', '--no-merges', '--format=%h%x09%s', `${BASE}..HEAD`);
} catch {
	console.log(`commits: not checked (commit ${BASE} is not in this clone, e.g. a shallow one)`);
	process.exit(0);
}
const commits = log.split('\n').filter(Boolean);
const long = commits
	.map((line) => line.split('\t'))
	.filter(([, subject]) => [...subject].length > LONGEST);
for (const [hash, subject] of long)
	console.error(`${hash} "${subject}": ${[...subject].length} characters, at most ${LONGEST}`);
if (long.length) {
	console.error('A subject says what changed in at most 72 characters; the reasons go in the body');
	console.error('(docs/commits.md). Reword with git rebase -i before pushing.');
	process.exit(1);
}
console.log(
	`commits: ${commits.length} since ${BASE}, every subject at most ${LONGEST} characters`,
);
