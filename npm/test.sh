#!/bin/sh
# Installs the npm tarballs npm/build.sh packed into a throwaway project,
# offline (no registry), and checks that npx swarm-guard and
# node_modules/.bin/swarm-guard run this platform's binary (the postinstall
# step put it in place of the JS launcher), and that the committed hook
# command finds it there; then the same with install scripts skipped, where
# the JS launcher runs it. Usage: npm/test.sh DIST VERSION.
set -eu
dist=$(cd "$1" && pwd)
version=$2
case "$(uname -s)-$(uname -m)" in
Linux-x86_64) plat=linux-x64 ;;
Linux-aarch64) plat=linux-arm64 ;;
Darwin-x86_64) plat=darwin-x64 ;;
Darwin-arm64) plat=darwin-arm64 ;;
*) echo "npm/test.sh: no build for $(uname -s) $(uname -m)" >&2; exit 1 ;;
esac
proj=$(mktemp -d "${TMPDIR:-/tmp}/swarm-guard-npm.XXXXXX")
trap 'rm -rf "$proj"' EXIT
cd "$proj"
git init -q .
echo '{"name":"throwaway","version":"1.0.0","private":true}' >package.json
npm install --offline --no-audit --no-fund --save-dev \
	"$dist/npm/swarm-guard-$plat-$version.tgz" "$dist/npm/swarm-guard-$version.tgz" >/dev/null 2>npm.err || {
	cat npm.err >&2
	exit 1
}
npx --offline swarm-guard version | grep -q "^swarm-guard v$version" || { echo "npx swarm-guard version did not print v$version" >&2; exit 1; }
./node_modules/.bin/swarm-guard version >/dev/null
[ -x "node_modules/@swarm-guard/$plat/bin/swarm-guard-secrets" ] || { echo "swarm-guard-secrets missing next to swarm-guard" >&2; exit 1; }
[ -x "node_modules/@swarm-guard/$plat/bin/swarm-guard-post" ] || { echo "swarm-guard-post missing next to swarm-guard" >&2; exit 1; }
# The documentation: the README and the docs/ pages it links to.
for f in README.md LICENSE docs/policy.md docs/install.md; do
	[ -s "node_modules/swarm-guard/$f" ] || { echo "the npm package lacks $f" >&2; exit 1; }
done
# postinstall: the binaries, not the JS launchers, behind node_modules/.bin.
for b in swarm-guard swarm-guard-post swarm-guard-secrets; do
	[ -x "node_modules/swarm-guard/bin/$b" ] && [ "$(head -c 2 "node_modules/swarm-guard/bin/$b")" != "#!" ] ||
		{ echo "postinstall did not put the $b binary in node_modules/swarm-guard/bin" >&2; exit 1; }
done
npx --offline swarm-guard install --on-failure omit >/dev/null
# The committed hook command, with swarm-guard only in node_modules/.bin.
cmd=$(node -e 'const s=require("./.claude/settings.json"); console.log(s.hooks.PreToolUse[0].hooks[0].command)')
payload='{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}'
rc=0
echo "$payload" | env PATH=/usr/bin:/bin CLAUDE_PROJECT_DIR="$proj" HOME="$proj/home" sh -c "$cmd" 2>hook.err || rc=$?
[ "$rc" = 2 ] && grep -q 'rule force-push' hook.err || { echo "the hook through node_modules/.bin did not block a force push (exit $rc)" >&2; cat hook.err >&2; exit 1; }
# PostToolUse: node_modules/.bin/swarm-guard-post finds no record of a
# PreToolUse for this call and hands over to the swarm-guard next to it.
cmd=$(node -e 'const s=require("./.claude/settings.json"); console.log(s.hooks.PostToolUse[0].hooks[0].command)')
payload='{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash","tool_use_id":"toolu_1","tool_input":{"command":"ls"},"tool_response":{"stdout":"a\n","stderr":""}}'
rc=0
printf '%s\n' "$payload" | env PATH=/usr/bin:/bin CLAUDE_PROJECT_DIR="$proj" HOME="$proj/home" sh -c "$cmd" >hook.out 2>hook.err || rc=$?
[ "$rc" = 0 ] && [ ! -s hook.out ] || { echo "PostToolUse through node_modules/.bin: exit $rc" >&2; cat hook.out hook.err >&2; exit 1; }
rc=0
echo '{"session_id":"s","hook_event_name":"PostToolUse","tool_name":"Bash"' | "node_modules/@swarm-guard/$plat/bin/swarm-guard-post" 2>hook.err || rc=$?
[ "$rc" = 2 ] && grep -q 'bad-input' hook.err || { echo "swarm-guard-post did not hand a broken event to the swarm-guard next to it (exit $rc)" >&2; cat hook.err >&2; exit 1; }
# Install scripts skipped: the JS launchers stay and run the platform
# binaries; the committed hook still blocks.
mkdir "$proj/noscripts"
cd "$proj/noscripts"
git init -q .
echo '{"name":"throwaway2","version":"1.0.0","private":true}' >package.json
npm install --offline --ignore-scripts --no-audit --no-fund --save-dev \
	"$dist/npm/swarm-guard-$plat-$version.tgz" "$dist/npm/swarm-guard-$version.tgz" >/dev/null 2>npm.err || {
	cat npm.err >&2
	exit 1
}
[ "$(head -c 2 node_modules/swarm-guard/bin/swarm-guard)" = "#!" ] || { echo "--ignore-scripts: expected the JS launcher" >&2; exit 1; }
cp "$proj/.claude/settings.json" settings.json
cmd=$(node -e 'const s=require("./settings.json"); console.log(s.hooks.PreToolUse[0].hooks[0].command)')
payload='{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"git push --force origin main"}}'
rc=0
echo "$payload" | env PATH=/usr/bin:/bin CLAUDE_PROJECT_DIR="$proj/noscripts" HOME="$proj/home" sh -c "$cmd" 2>hook.err || rc=$?
[ "$rc" = 2 ] && grep -q 'rule force-push' hook.err || { echo "--ignore-scripts: the hook through the JS launcher did not block a force push (exit $rc)" >&2; cat hook.err >&2; exit 1; }
echo "npm packages install offline and run: $(ls "$dist"/npm/*.tgz | wc -l) tarballs, $plat, binaries in place of the launchers (and the launchers with --ignore-scripts)"
