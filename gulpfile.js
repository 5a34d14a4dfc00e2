// The build's asset step: tsc compiles the TypeScript, this copies what tsc does not emit.
// Icons (shared, top-level icons/ and any beside a node) and the codex files (<Node>.node.json).
const { src, dest, parallel } = require('gulp');

function copyIcons() {
	return src(['icons/**/*.{png,svg}'], { encoding: false }).pipe(dest('dist/icons'));
}

function copyNodeAssets() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json'], { encoding: false }).pipe(
		dest('dist/nodes'),
	);
}

exports['build:assets'] = parallel(copyIcons, copyNodeAssets);
exports.default = exports['build:assets'];
