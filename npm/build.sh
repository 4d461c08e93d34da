#!/bin/sh
# Builds the npm packages from the binaries make dist cross-compiled:
# one package per platform (@swarm-guard/<os>-<arch>, holding swarm-guard,
# swarm-guard-secrets and swarm-guard-post, limited by "os" and "cpu" so npm installs only
# the matching one) and the main package swarm-guard, which lists them as
# optionalDependencies. Its bin/swarm-guard and bin/swarm-guard-post are JS
# launchers (npm/swarm-guard/bin/swarm-guard.js) that its postinstall step
# (npm/swarm-guard/install.js) replaces with the platform's binaries.
# The main package carries the documentation (docs/ship.sh), so npm shows
# the README and its links to docs/ work in node_modules/swarm-guard.
# Then npm pack for each. Usage: npm/build.sh DIST VERSION [COMMIT]
# (VERSION without v; COMMIT, where the docs' links into the source point,
# defaults to HEAD).
set -eu
dist=$1
version=$2
commit=${3:-$(git -C "$(dirname "$0")" rev-parse HEAD)}
src=$(cd "$(dirname "$0")" && pwd)
dist=$(cd "$dist" && pwd)
out="$dist/npm"
rm -rf "$out"
mkdir -p "$out"
optional=""
for target in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64; do
	os=${target%/*}
	arch=${target#*/}
	cpu=$arch
	[ "$arch" = amd64 ] && cpu=x64
	name="@swarm-guard/$os-$cpu"
	dir="$out/$os-$cpu"
	mkdir -p "$dir/bin"
	cp "$dist/swarm-guard_${os}_${arch}/swarm-guard" "$dist/swarm-guard_${os}_${arch}/swarm-guard-secrets" \
		"$dist/swarm-guard_${os}_${arch}/swarm-guard-post" "$dir/bin/"
	cp "$src/../LICENSE" "$dir/"
	cat >"$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "$version",
  "description": "swarm-guard binaries for $os $cpu (installed by the swarm-guard package)",
  "license": "MIT",
  "repository": {"type": "git", "url": "git+https://github.com/swarm-guard/swarm-guard.git"},
  "os": ["$os"],
  "cpu": ["$cpu"],
  "files": ["bin/", "LICENSE"]
}
JSON
	optional="$optional${optional:+,
}    \"$name\": \"$version\""
	(cd "$dir" && npm pack --silent --pack-destination "$out" >/dev/null)
done
main="$out/swarm-guard"
mkdir -p "$main/bin"
cp "$src/swarm-guard/bin/swarm-guard.js" "$main/bin/swarm-guard"
cp "$src/swarm-guard/bin/swarm-guard.js" "$main/bin/swarm-guard-post"
chmod 755 "$main/bin/swarm-guard" "$main/bin/swarm-guard-post"
cp "$src/swarm-guard/install.js" "$src/swarm-guard/platform.js" "$main/"
"$src/../docs/ship.sh" "$main" "$commit"
cat >"$main/package.json" <<JSON
{
  "name": "swarm-guard",
  "version": "$version",
  "description": "Guards Claude Code agents in a shared git repository: npm i -D swarm-guard, then npx swarm-guard install",
  "license": "MIT",
  "repository": {"type": "git", "url": "git+https://github.com/swarm-guard/swarm-guard.git"},
  "bin": {"swarm-guard": "bin/swarm-guard", "swarm-guard-post": "bin/swarm-guard-post"},
  "scripts": {"postinstall": "node install.js"},
  "files": ["bin/", "install.js", "platform.js", "LICENSE", "README.md", "CHANGELOG.md", "SECURITY.md", "docs/"],
  "engines": {"node": ">=16"},
  "optionalDependencies": {
$optional
  }
}
JSON
(cd "$main" && npm pack --silent --pack-destination "$out" >/dev/null)
ls "$out"/*.tgz
