# Sourced in the package root by the package.json scripts (`. .ci/node24.sh && ...`) and by .ci/run.
# Afterwards `node` is Node 24 or newer and node_modules is installed from package-lock.json:
# - on an older Node, Node 24 is fetched once from the npm registry (node-<platform>-<arch>, a plain
#   binary package without install scripts) into a cache folder all clones share, and put first on PATH;
# - `npm ci` runs when node_modules is missing or older than package-lock.json.
# When it cannot, it prints one line saying why and returns 1. POSIX sh: npm runs scripts with sh.
NODE24_VERSION="24.21.0"

node24_use() {
	node24_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	[ "$node24_major" -ge 24 ] && return 0
	node24_platform=$(node -p 'process.platform + "-" + process.arch' 2>/dev/null || uname -s)
	node24_hint="Node $(node --version 2>/dev/null || echo '(none)') is older than 24, which these scripts need, and fetching Node $NODE24_VERSION from the npm registry failed"
	# npm reads its global npmrc (a company certificate, a proxy) under the prefix of the Node it runs
	# on: on Node 24, or with --prefix, it would look elsewhere. Keep the file this npm reads.
	if [ -z "${npm_config_globalconfig:-}" ]; then
		node24_globalconfig=$(npm config get globalconfig 2>/dev/null || true)
		if [ -n "$node24_globalconfig" ] && [ -f "$node24_globalconfig" ]; then
			export npm_config_globalconfig="$node24_globalconfig"
		fi
	fi
	node24_prefix="${NODE24_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-site-performance-security/node-$NODE24_VERSION}"
	node24_home="$node24_prefix/node_modules/node-$node24_platform"
	if [ ! -x "$node24_home/bin/node" ]; then
		echo "::: fetching Node $NODE24_VERSION (node-$node24_platform) from the npm registry into $node24_prefix"
		mkdir -p "$node24_prefix" 2>/dev/null || {
			echo "$node24_hint: $node24_prefix cannot be created (set XDG_CACHE_HOME to a writable folder), or install Node 24 (.nvmrc)" >&2
			return 1
		}
		# One fetch at a time (flock, where there is one): a second shell waits, then finds Node there.
		(
			if command -v flock >/dev/null; then flock 9; fi
			if [ ! -x "$node24_home/bin/node" ]; then
				npm install --prefix "$node24_prefix" --no-save --no-audit --no-fund --loglevel=error "node-$node24_platform@$NODE24_VERSION" >"$node24_prefix.fetch.log" 2>&1
			fi
		) 9>"$node24_prefix.fetch-lock"
		if [ ! -x "$node24_home/bin/node" ]; then
			node24_error=$(sed -n 's/^npm error code //p' "$node24_prefix.fetch.log" 2>/dev/null | head -n 1)
			echo "$node24_hint (npm error ${node24_error:-unknown}, log: $node24_prefix.fetch.log): make \`npm view node-$node24_platform@$NODE24_VERSION version\` work (proxy, certificate), or install Node 24 (.nvmrc)" >&2
			return 1
		fi
	fi
	export PATH="$node24_home/bin:$PATH"
	# Native builds (node-gyp during npm ci) use Node 24's headers. node-gyp 11.4+ (npm 11.6+) reads
	# npm_package_config_node_gyp_nodedir, which npm does not warn about; npm_config_nodedir (npm 11
	# warns "Unknown env config") only for an npm whose node-gyp predates that.
	export npm_package_config_node_gyp_nodedir="$node24_home"
	node24_npm_cli=$(readlink -f "$(command -v npm)" 2>/dev/null || true)
	if ! node -e '
		const [major, minor] = require(require("path").join(process.argv[1], "../../node_modules/node-gyp/package.json")).version.split(".").map(Number);
		process.exit(major > 11 || (major === 11 && minor >= 4) ? 0 : 1);
	' "$node24_npm_cli" 2>/dev/null; then
		export npm_config_nodedir="$node24_home"
	fi
}

# npm ci writes node_modules/.package-lock.json last: missing or older than package-lock.json, the
# install is missing, broken off or stale.
node24_install() {
	if [ -f node_modules/.package-lock.json ] && [ ! package-lock.json -nt node_modules/.package-lock.json ]; then
		return 0
	fi
	echo "::: npm ci (node_modules is missing or older than package-lock.json)"
	bash .ci/check-npm.sh >/dev/null && npm ci --no-audit --no-fund
}

node24_use && node24_install
