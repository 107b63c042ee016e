#!/usr/bin/env bash
# `npm ci` needs npm 11.16 or newer: older npm ignores package.json's `allowScripts` and runs a dev
# dependency's `npx only-allow pnpm` preinstall, which fails with a cryptic npx error. Trusted
# publishing needs 11.5.1. Used by .ci/node24.sh (before its npm ci), .ci/run and the GitHub workflows.
set -euo pipefail
required="11.16.0"
version=$(npm --version)
if [ "$(printf '%s\n%s\n' "$required" "$version" | sort -V | head -n 1)" != "$required" ]; then
	echo "::error::npm $version is too old: npm ci here needs npm $required or newer (package.json's allowScripts). Run \`npm install -g npm@^11.16\`." >&2
	exit 1
fi
echo "npm $version (needs $required or newer)"
