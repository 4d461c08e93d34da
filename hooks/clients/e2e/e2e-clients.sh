#!/usr/bin/env bash
# make e2e-clients: the real Codex, Gemini CLI, Copilot CLI, opencode, Qwen
# Code and Droid against swarm-guard (see doc.go). Installs each pinned
# client with npm into a cache directory once, builds swarm-guard, and runs
# this package's tests, in a network namespace of their own when the
# machine allows one (then nothing can leave 127.0.0.1 at all; the
# stand-in's proxy still counts what the clients try). A client npm cannot
# install is skipped in one line; without node or npm the whole target is.
set -euo pipefail
cd "$(dirname "$0")/../../.."

go="${GO:-go}"
bin="${BIN:-bin}"

for tool in node npm; do
	if ! command -v "$tool" >/dev/null; then
		echo "e2e-clients: skipped, $tool is not installed (install Node.js and npm to run the real clients)"
		exit 0
	fi
done

cache="${XDG_CACHE_HOME:-$HOME/.cache}/swarm-guard/clients"
mkdir -p "$cache"

# install NAME PACKAGE@VERSION RELATIVE-EXECUTABLE: the executable's path
# on stdout, or a one-line reason on stderr and nothing on stdout.
install() {
	local name="$1" pkg="$2" rel="$3"
	local dir="${pkg#@}"
	dir="$cache/${dir//\//-}"
	if [ ! -x "$dir/$rel" ]; then
		echo "e2e-clients: installing $pkg into $dir" >&2
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		# --ignore-scripts: no install script of any client runs here (some
		# download from the internet); each client's native binary comes
		# as an optional dependency package instead.
		if ! npm install --prefix "$dir.tmp" --no-audit --no-fund --ignore-scripts --loglevel=error "$pkg" >"$dir.log" 2>&1 ||
			[ ! -x "$dir.tmp/$rel" ]; then
			echo "e2e-clients: skipped $name: npm could not install $pkg ($(grep -m1 -o 'E[0-9][0-9][0-9][^:]*\|ERR!.*' "$dir.log" || echo "no $rel after install"); log: $dir.log)" >&2
			rm -rf "$dir.tmp"
			return 0
		fi
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir/$rel"
}

# The versions measured in the reference (agent-clients.md). Droid: the
# @factory/cli wrapper 0.225.1 names @factory/cli-linux-x64@0.225.1, which
# is not on the registry (E404), and its install script downloads; the
# binary package 0.225.2 is installed directly.
arch="$(uname -m)"
if [ "$arch" = x86_64 ]; then
	export SWARM_GUARD_E2E_CODEX="$(install codex @openai/codex@0.169.0 node_modules/.bin/codex)"
	export SWARM_GUARD_E2E_OPENCODE="$(install opencode opencode-ai@1.18.33 node_modules/opencode-linux-x64/bin/opencode)"
	export SWARM_GUARD_E2E_DROID="$(install droid @factory/cli-linux-x64@0.225.2 node_modules/@factory/cli-linux-x64/bin/droid)"
else
	echo "e2e-clients: skipped codex, opencode and droid: their pinned native packages are the linux-x64 ones, this machine is $arch" >&2
fi
export SWARM_GUARD_E2E_GEMINI="$(install gemini @google/gemini-cli@0.61.0 node_modules/.bin/gemini)"
export SWARM_GUARD_E2E_COPILOT="$(install copilot @github/copilot@1.0.102 node_modules/.bin/copilot)"
export SWARM_GUARD_E2E_QWEN="$(install qwen @qwen-code/qwen-code@0.24.4 node_modules/.bin/qwen)"

# Copilot CLI unpacks its code into ~/.cache/copilot/pkg on its first
# run: once here, then every test HOME links to it.
if [ -n "$SWARM_GUARD_E2E_COPILOT" ]; then
	export SWARM_GUARD_E2E_COPILOT_PKG="$cache/copilot-home/.cache/copilot/pkg"
	if [ ! -d "$SWARM_GUARD_E2E_COPILOT_PKG" ]; then
		HOME="$cache/copilot-home" XDG_CACHE_HOME="$cache/copilot-home/.cache" "$SWARM_GUARD_E2E_COPILOT" --version >/dev/null
	fi
fi

CGO_ENABLED=0 "$go" build -trimpath -ldflags '-s -w' -o "$bin/" ./cmd/...
"$go" test -c -o "$bin/clients-e2e.test" ./hooks/clients/e2e
export SWARM_GUARD_E2E_BIN="$(cd "$bin" && pwd)"
# TestTiming writes its figures into the results file COST_FILE names
# (make e2e-cost: docs/clients-cost.md), else into bin/clients-cost.md.
cost="${COST_FILE:-$SWARM_GUARD_E2E_BIN/clients-cost.md}"
case "$cost" in /*) ;; *) cost="$PWD/$cost" ;; esac
export SWARM_GUARD_E2E_COST_FILE="$cost"
export SWARM_GUARD_E2E_COMMIT="$(git rev-parse HEAD 2>/dev/null || echo unknown)"
# The scenarios' repositories live next to the cache, not under /tmp,
# which the default policy lets agents write to.
export SWARM_GUARD_E2E_ROOT="$(dirname "$cache")/clients-work"

cd hooks/clients/e2e
test="$OLDPWD/$bin/clients-e2e.test"
case "$bin" in /*) test="$bin/clients-e2e.test" ;; esac
args=(-test.v -test.count=1 -test.timeout 30m "$@")
if unshare -rn sh -c 'ip link set lo up 2>/dev/null; exit 0' 2>/dev/null; then
	exec unshare -rn sh -c 'ip link set lo up 2>/dev/null; exec "$0" "$@"' "$test" "${args[@]}"
fi
echo "e2e-clients: no network namespace here (unshare -rn failed); the stand-in's proxy is the only fence" >&2
exec "$test" "${args[@]}"
