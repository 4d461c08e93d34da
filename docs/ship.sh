#!/bin/sh
# Copies the user's documentation into a release: each archive's folder
# (make dist-archives) and the npm package swarm-guard (npm/build.sh), so
# that the README's links to docs/ work where the binary was unpacked.
# Shipped: README.md, CHANGELOG.md, SECURITY.md, LICENSE and docs/*.md. A
# link into the source tree (docs/rules.md -> ../guard/rules) has no file in
# a release, so it becomes the same path on GitHub at COMMIT, the commit
# the release was built from. docs/ship_test.go checks that every relative
# link of the copy resolves inside it.
# Usage: docs/ship.sh DEST COMMIT
set -eu
[ $# -eq 2 ] || { echo "usage: docs/ship.sh DEST COMMIT" >&2; exit 2; }
src=$(cd "$(dirname "$0")/.." && pwd)
dest=$1
url=https://github.com/swarm-guard/swarm-guard/tree/$2
# The folders of the source tree the pages link into.
tree='guard|hooks|install|cmd|policy|testdata|npm|\.ci'
mkdir -p "$dest/docs"
cp "$src/LICENSE" "$dest/"
for f in README.md CHANGELOG.md SECURITY.md; do
	sed -E "s#\]\((\./)?(($tree)/)#](${url}/\2#g" "$src/$f" >"$dest/$f"
done
for f in "$src"/docs/*.md; do
	sed -E "s#\]\(\.\./(($tree)/)#](${url}/\1#g" "$f" >"$dest/docs/${f##*/}"
done
