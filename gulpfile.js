const fs = require('node:fs');
const path = require('node:path');
const { task, src, dest } = require('gulp');

task('clean', cleanDist);
task('build:icons', copyIcons);

/** Starts each build from an empty dist/, so files of renamed or deleted sources are never packed. */
async function cleanDist() {
	fs.rmSync(path.resolve('dist'), { recursive: true, force: true });
}

/** tsc emits the code and, with resolveJsonModule, every JSON file under nodes/ (codex files, output schemas); icons are what it does not copy. */
function copyIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}
