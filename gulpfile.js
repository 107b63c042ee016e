const fs = require('node:fs');
const path = require('node:path');
const { task, src, dest } = require('gulp');

task('clean', cleanDist);
task('build:icons', copyIcons);

/** Starts each build from an empty dist/, so files of renamed or deleted sources are never packed. */
async function cleanDist() {
	fs.rmSync(path.resolve('dist'), { recursive: true, force: true });
}

function copyIcons() {
	const assets = [
		'nodes/**/*.{png,svg}',
		'credentials/**/*.{png,svg}',
		'nodes/**/*.node.json',
		'nodes/**/__schema__/**/*.json',
	];
	return src(assets, { base: '.', encoding: false }).pipe(dest(path.resolve('dist'), { cwd: '.' })).on('end', () => {});
}
