# Sourced in the package root by the package.json scripts (`. .ci/node24.sh && ...`) and by .ci/run.
# Afterwards `node` is Node 24 or newer, `npm` is npm 11.16 or newer, and node_modules is installed
# from package-lock.json:
# - on an older Node, Node 24 is fetched once from the npm registry (node-<platform>-<arch>, a plain
#   binary package without install scripts) into a cache folder all clones share, and put first on PATH;
# - with an older npm (Node 20 and 22 ship npm 10), npm $NODE24_NPM_VERSION is fetched the same way
#   into the same cache folder and put first on PATH: package.json's allowScripts needs npm 11.16
#   (an older npm runs a dev dependency's `npx only-allow pnpm` preinstall, and npm ci fails);
# - `npm ci` runs when node_modules is missing or older than package-lock.json.
# Nothing is installed globally. When it cannot, it prints one line saying why and returns 1.
# POSIX sh: npm runs scripts with sh.
NODE24_VERSION="24.21.0"
NODE24_NPM_VERSION="11.19.1"

# npm reads its global npmrc (a company certificate, a proxy) under the prefix of the Node it runs on,
# or where its own builtin npmrc says (Debian's npm): on Node 24, with --prefix or as the fetched npm
# it would look elsewhere. Keep the file the machine's npm reads.
node24_keep_globalconfig() {
	[ -n "${npm_config_globalconfig:-}" ] && return 0
	node24_globalconfig=$(npm config get globalconfig 2>/dev/null || true)
	if [ -n "$node24_globalconfig" ] && [ -f "$node24_globalconfig" ]; then
		export npm_config_globalconfig="$node24_globalconfig"
	fi
}

node24_cache() {
	echo "${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-site-performance-security"
}

# Fetches `$2` (a package@version) from the npm registry into the prefix folder $1, one shell at a
# time (flock, where there is one: a second shell waits, then finds it there), unless the file $3 is
# there already. Prints one line naming npm's error and the log when it fails.
node24_fetch() {
	[ -e "$3" ] && return 0
	echo "::: fetching $2 from the npm registry into $1"
	mkdir -p "$1" 2>/dev/null || {
		echo "$node24_hint: $1 cannot be created (set XDG_CACHE_HOME to a writable folder)$node24_instead" >&2
		return 1
	}
	(
		if command -v flock >/dev/null; then flock 9; fi
		if [ ! -e "$3" ]; then
			npm install --prefix "$1" --no-save --no-audit --no-fund --loglevel=error "$2" >"$1.fetch.log" 2>&1
		fi
	) 9>"$1.fetch-lock"
	[ -e "$3" ] && return 0
	node24_error=$(sed -n 's/^npm error code //p' "$1.fetch.log" 2>/dev/null | head -n 1)
	echo "$node24_hint (npm error ${node24_error:-unknown}, log: $1.fetch.log): make \`npm view $2 version\` work (proxy, certificate)$node24_instead" >&2
	return 1
}

node24_use() {
	node24_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
	[ "$node24_major" -ge 24 ] && return 0
	node24_platform=$(node -p 'process.platform + "-" + process.arch' 2>/dev/null || uname -s)
	node24_hint="Node $(node --version 2>/dev/null || echo '(none)') is older than 24, which these scripts need, and fetching Node $NODE24_VERSION from the npm registry failed"
	node24_instead=", or install Node 24 (.nvmrc)"
	node24_keep_globalconfig
	node24_prefix="${NODE24_PREFIX:-$(node24_cache)/node-$NODE24_VERSION}"
	node24_home="$node24_prefix/node_modules/node-$node24_platform"
	node24_fetch "$node24_prefix" "node-$node24_platform@$NODE24_VERSION" "$node24_home/bin/node" || return 1
	export PATH="$node24_home/bin:$PATH"
	# Native builds (node-gyp during npm ci) use Node 24's headers. node-gyp 11.4+ (npm 11.6+) reads
	# npm_package_config_node_gyp_nodedir, which npm does not warn about; npm_config_nodedir (npm 11
	# warns "Unknown env config") only for an npm whose node-gyp predates that.
	export npm_package_config_node_gyp_nodedir="$node24_home"
}

# npm 11.16 or newer on PATH: the machine's, or npm $NODE24_NPM_VERSION fetched into the cache. The
# npm that ran the script (npm_execpath, its node-gyp) is replaced too: install.mts runs npm_execpath.
node24_npm() {
	node24_npm_version=$(npm --version 2>/dev/null || echo 0)
	if node -e '
		const [major, minor] = process.argv[1].split(".").map(Number);
		process.exit(major > 11 || (major === 11 && minor >= 16) ? 0 : 1);
	' "$node24_npm_version"; then
		return 0
	fi
	node24_hint="npm $node24_npm_version is older than 11.16, which npm ci here needs (package.json's allowScripts), and fetching npm $NODE24_NPM_VERSION from the npm registry failed"
	node24_instead=", or install npm 11.16 or newer"
	node24_keep_globalconfig
	node24_npm_prefix="$(node24_cache)/npm-$NODE24_NPM_VERSION"
	node24_fetch "$node24_npm_prefix" "npm@$NODE24_NPM_VERSION" "$node24_npm_prefix/node_modules/npm/bin/npm-cli.js" || return 1
	export PATH="$node24_npm_prefix/node_modules/.bin:$PATH"
	export npm_execpath="$node24_npm_prefix/node_modules/npm/bin/npm-cli.js"
	unset npm_config_node_gyp
}

# Native builds (node-gyp during npm ci) on Node 24 for the node-gyp of the npm now on PATH.
node24_nodedir() {
	[ -n "${node24_home:-}" ] || return 0
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
	npm ci --no-audit --no-fund
}

node24_use && node24_npm && node24_nodedir && node24_install
