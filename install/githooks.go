package install

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
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

// planGitHooks installs the hook files into the hooks directory, or joins
// husky's user scripts.
func planGitHooks(o Options) ([]Change, []string, error) {
	if o.Git.Husky != "" {
		return planHusky(o)
	}
	if o.Git.Lefthook != nil {
		return planLefthook(o)
	}
	var changes []Change
	var notes []string
	for _, name := range HookNames {
		path := filepath.Join(o.Git.Dir, name)
		chained := path + ChainSuffix
		script := HookScript(name, o.Binary)
		old, isLink, err := readHook(path)
		if err != nil {
			return nil, nil, err
		}
		_, chainErr := os.Lstat(chained)
		haveChained := chainErr == nil
		summary := "swarm-guard git hook"
		if haveChained {
			summary += "; then runs " + filepath.Base(chained)
		}
		// Copies of swarm-guard's hook a hook manager moved aside: they go
		// once swarm-guard's hook is back in place.
		copies := ourCopies(o.Git.Dir, name)
		if !isLink && migrationMode(path, old) {
			// pre-commit runs swarm-guard's hook as <hook>.legacy: keep
			// that arrangement, with the current script.
			legacy := legacyName(path)
			cur, _ := os.ReadFile(legacy)
			action := "update"
			if bytes.Equal(cur, script) {
				action = "unchanged"
			}
			changes = append(changes, Change{Path: legacy, Action: action, Summary: "swarm-guard git hook, run first by pre-commit's hook (migration mode)",
				do: func() error { return writeAtomic(legacy, script, 0o755) }})
			continue
		}
		removeCopies := func() error {
			for _, c := range copies {
				if err := os.Remove(c); err != nil {
					return fmt.Errorf("remove %s: %w", c, err)
				}
			}
			return nil
		}
		for _, c := range copies {
			notes = append(notes, fmt.Sprintf("%s was swarm-guard's %s hook, moved aside by a hook manager; swarm-guard's hook is back at %s and the copy is removed", c, name, path))
		}
		if !isLink && haveChained && !IsOurGitHook(old) && old != nil {
			chainedData, _ := os.ReadFile(chained)
			if m := Manager(old); m != "" && (m == Manager(chainedData) || bytes.Equal(chainedData, old)) {
				// A hook manager re-installed its hook over swarm-guard's
				// (lefthook moves swarm-guard's to <hook>.old): its new
				// hook replaces the copy swarm-guard chained before, and
				// swarm-guard's hook goes back in front.
				changes = append(changes, Change{Path: path, Action: "repair",
					Summary: fmt.Sprintf("swarm-guard git hook back in place; %s's re-installed hook moves to %s and runs after it", m, filepath.Base(chained)),
					do: func() error {
						if err := os.Rename(path, chained); err != nil {
							return fmt.Errorf("chain %s's hook: %w", m, err)
						}
						if err := writeAtomic(path, script, 0o755); err != nil {
							return err
						}
						return removeCopies()
					}})
				continue
			}
		}
		switch {
		case old == nil && !isLink:
			changes = append(changes, Change{Path: path, Action: "create", Summary: summary,
				do: func() error {
					if err := writeAtomic(path, script, 0o755); err != nil {
						return err
					}
					return removeCopies()
				}})
		case !isLink && IsOurGitHook(old):
			if bytes.Equal(old, script) && isExecutable(path) && len(copies) == 0 {
				changes = append(changes, Change{Path: path, Action: "unchanged", Summary: summary})
				continue
			}
			changes = append(changes, Change{Path: path, Action: "update", Summary: summary,
				do: func() error {
					if err := writeAtomic(path, script, 0o755); err != nil {
						return err
					}
					return removeCopies()
				}})
		case haveChained:
			where := ""
			if len(copies) > 0 {
				where = fmt.Sprintf(" (swarm-guard's own hook was moved to %s)", filepath.Base(copies[0]))
			}
			return nil, nil, &RefusedError{Msg: fmt.Sprintf("%s is now another hook%s, and %s holds the hook that was there before swarm-guard; git can run only one of them before swarm-guard's: keep the one you want at %s (move the other away), then run swarm-guard install again", path, where, chained, path)}
		default:
			changes = append(changes, Change{Path: path, Action: "chain",
				Summary: fmt.Sprintf("swarm-guard git hook; the existing hook moves to %s and runs after it", filepath.Base(chained)),
				do: func() error {
					if _, err := os.Lstat(chained); err == nil {
						return fmt.Errorf("%s appeared while installing; run swarm-guard install again", chained)
					}
					if err := os.Rename(path, chained); err != nil {
						return fmt.Errorf("chain the existing hook: %w", err)
					}
					if err := writeAtomic(path, script, 0o755); err != nil {
						return err
					}
					return removeCopies()
				}})
			if !isExecutable(path) {
				notes = append(notes, fmt.Sprintf("%s is not executable, so git skipped it; swarm-guard's hook skips it too", path))
			}
		}
	}
	return changes, notes, nil
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
