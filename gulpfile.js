const path = require('node:path');
const { task, src, dest } = require('gulp');

task('build:icons', copyIcons);

function copyIcons() {
	const assets = [
		'nodes/**/*.{png,svg}',
		'credentials/**/*.{png,svg}',
		'nodes/**/*.node.json',
		'nodes/**/__schema__/**/*.json',
	];
	return src(assets, { base: '.', encoding: false }).pipe(dest(path.resolve('dist'), { cwd: '.' })).on('end', () => {});
}
