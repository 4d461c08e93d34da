#!/usr/bin/env bash
# make e2e: the real Claude Code client against swarm-guard (see doc.go).
# Installs the pinned client with npm into a cache directory once, builds
# swarm-guard, and runs the client tests of this package. Without node or
# npm it says so in one line and exits 0, so that the rest of CI still
# counts.
set -euo pipefail
cd "$(dirname "$0")/../../.."

version="${CLAUDE_CODE_VERSION:-2.1.330}"
go="${GO:-go}"
bin="${BIN:-bin}"

for tool in node npm; do
	if ! command -v "$tool" >/dev/null; then
		echo "e2e: skipped, $tool is not installed (install Node.js and npm to run the real Claude Code client)"
		exit 0
	fi
done

cache="${XDG_CACHE_HOME:-$HOME/.cache}/swarm-guard-e2e/claude-code-$version"
claude="$cache/node_modules/.bin/claude"
if ! "$claude" --version 2>/dev/null | grep -q "^$version "; then
	echo "e2e: installing @anthropic-ai/claude-code@$version into $cache" >&2
	rm -rf "$cache.tmp"
	mkdir -p "$cache.tmp"
	# The client declares Node >= 22 and runs headless on Node 20 too:
	# the exact version is pinned, so npm's engine warning is noise here.
	if ! npm install --prefix "$cache.tmp" --no-audit --no-fund --loglevel=error \
		"@anthropic-ai/claude-code@$version" >&2; then
		echo "e2e: npm could not install @anthropic-ai/claude-code@$version (see npm's error above); check that the npm registry is reachable, then run make e2e again" >&2
		exit 1
	fi
	rm -rf "$cache"
	mv "$cache.tmp" "$cache"
fi
"$claude" --version >&2

CGO_ENABLED=0 "$go" build -trimpath -ldflags '-s -w' -o "$bin/" ./cmd/...
bin="$(cd "$bin" && pwd)"
# TestTiming writes its figures into the results file COST_FILE names
# (make e2e-cost: docs/clients-cost.md), else into bin/clients-cost.md.
cost="${COST_FILE:-$bin/clients-cost.md}"
case "$cost" in /*) ;; *) cost="$PWD/$cost" ;; esac
# The scenarios' repositories live next to the cache, not under /tmp,
# which the default policy lets agents write to. The whole run takes
# about 3 minutes on an idle 2-core machine, 9 minutes at load average 30.
SWARM_GUARD_E2E_ROOT="$(dirname "$cache")/work" \
SWARM_GUARD_E2E_CLAUDE="$claude" SWARM_GUARD_E2E_BIN="$bin" \
SWARM_GUARD_E2E_COST_FILE="$cost" SWARM_GUARD_E2E_COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
	exec "$go" test -count=1 -timeout 20m -v ./hooks/claude/e2e "$@"
