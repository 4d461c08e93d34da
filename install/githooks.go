package install

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
)

// HookNames are the git hooks swarm-guard installs.
var HookNames = []string{"pre-commit", "prepare-commit-msg", "commit-msg", "pre-push"}

// ChainSuffix is appended to the name of a hook that was in place before
// swarm-guard: it moves to <hook>.swarm-guard-chained, in the same
// directory so that scripts finding files next to themselves still work,
// and swarm-guard's hook runs it afterwards.
const ChainSuffix = ".swarm-guard-chained"

// hookFingerprint marks a hook file as swarm-guard's, whatever binary it
// calls.
const hookFingerprint = "# swarm-guard-hook: "

// IsOurGitHook reports whether a hook file's content is swarm-guard's.
func IsOurGitHook(data []byte) bool { return bytes.Contains(data, []byte("\n"+hookFingerprint)) }

// HookScript is the hook file for one git hook (in .git, never committed).
// It runs the installer's binary by absolute path, else the one the lookup
// rule finds, else fails with the install hint; then the chained
// hook that was there before, if any, with the same arguments (and for
// pre-push the same ref lines on stdin); a failure of either fails the hook.
func HookScript(hook, binary string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `#!/bin/sh
%s%s
# Installed by swarm-guard install; swarm-guard uninstall removes it and puts
# back the hook that was here before. Edits are lost on the next install.
sg=%s
if [ ! -x "$sg" ]; then
	%s
	[ -x "$sg" ] || {
		echo %s >&2
		exit 1
	}
fi
# The hook this one replaced, next to it under its own name: also when a
# hook manager moved this file (pre-commit's migration mode runs it as
# %s.legacy).
chained="$(dirname "$0")/%s%s"
[ -x "$chained" ] || exec "$sg" git-hook %s "$@"
`, hookFingerprint, hook, shellQuote(binary), clientconfig.LookupScript("."), shellQuote(clientconfig.InstallHint), hook, hook, ChainSuffix, hook)
	if hook == "pre-push" {
		b.WriteString(`# Both hooks read git's ref lines: keep them for the second.
in=$(mktemp "${TMPDIR:-/tmp}/swarm-guard-pre-push.XXXXXX") || exit 1
trap 'rm -f "$in"' EXIT
trap 'exit 1' HUP INT TERM
cat >"$in" || exit 1
"$sg" git-hook pre-push "$@" <"$in" || exit $?
"$chained" "$@" <"$in"
`)
	} else {
		fmt.Fprintf(&b, `"$sg" git-hook %s "$@" || exit $?
exec "$chained" "$@"
`, hook)
	}
	return []byte(b.String())
}

// readHook reads a hook file; a symbolic link is reported, not followed:
// it is somebody else's hook and is chained as it is.
func readHook(path string) (data []byte, isLink bool, err error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("inspect %s: %w", path, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, true, nil
	}
	if fi.IsDir() {
		return nil, false, fmt.Errorf("%s is a directory, not a hook; move it away, then run swarm-guard install again", path)
	}
	data, err = os.ReadFile(path)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", path, err)
	}
	return data, false, nil
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}
