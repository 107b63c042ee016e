#!/usr/bin/env bash
# The publish workflow's `npm ci` and `npm publish` need npm 11.16 or newer: older npm ignores
# package.json's `allowScripts` and runs a dev dependency's `npx only-allow pnpm` preinstall, which
# fails with a cryptic npx error; trusted publishing needs 11.5.1. The npm scripts need no check:
# .ci/node24.sh fetches npm 11 into the cache when the machine's is older.
set -euo pipefail
required="11.16.0"
version=$(npm --version)
if [ "$(printf '%s\n%s\n' "$required" "$version" | sort -V | head -n 1)" != "$required" ]; then
	echo "::error::npm $version is too old: npm ci here needs npm $required or newer (package.json's allowScripts). Run \`npm install -g npm@^11.16\`." >&2
	exit 1
fi
echo "npm $version (needs $required or newer)"
