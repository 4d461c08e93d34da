package install

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
)

// With husky, core.hooksPath points at .husky/_, whose files husky
// regenerates; they run the user scripts .husky/<hook> with sh -e.
// swarm-guard adds a marked block at the top of those scripts, and
// uninstall removes exactly that block.

const (
	huskyBegin = "# >>> swarm-guard >>> added by swarm-guard install; swarm-guard uninstall removes it\n"
	huskyEnd   = "# <<< swarm-guard <<<\n"
	// huskyNew starts a user script install creates.
	huskyNew = "#!/usr/bin/env sh\n"
)

// huskyBlock runs swarm-guard for one hook from a husky user script. The
// script is committed, so it finds the binary by the lookup rule and holds
// no machine-specific path. For pre-push, the ref lines on stdin are kept
// for the rest of the script.
func huskyBlock(hook, binary string) string {
	var b strings.Builder
	b.WriteString(huskyBegin)
	fmt.Fprintf(&b, "%s; [ -x \"$sg\" ] || { echo %s >&2; exit 1; }; swarm_guard=$sg\n",
		clientconfig.LookupScript("."), shellQuote(clientconfig.InstallHint))
	if hook == "pre-push" {
		b.WriteString(`swarm_guard_in=$(mktemp "${TMPDIR:-/tmp}/swarm-guard-pre-push.XXXXXX") || exit 1
cat >"$swarm_guard_in" || exit 1
"$swarm_guard" git-hook pre-push "$@" <"$swarm_guard_in" || { swarm_guard_rc=$?; rm -f "$swarm_guard_in"; exit $swarm_guard_rc; }
exec <"$swarm_guard_in"; rm -f "$swarm_guard_in"
`)
	} else {
		fmt.Fprintf(&b, "\"$swarm_guard\" git-hook %s \"$@\" || exit $?\n", hook)
	}
	b.WriteString(huskyEnd)
	return b.String()
}

// findHuskyBlock returns the byte range of swarm-guard's block.
func findHuskyBlock(s string) (int, int, bool) {
	i := strings.Index(s, huskyBegin)
	if i < 0 || (i > 0 && s[i-1] != '\n') {
		return 0, 0, false
	}
	j := strings.Index(s[i:], huskyEnd)
	if j < 0 {
		return 0, 0, false
	}
	return i, i + j + len(huskyEnd), true
}

// withHuskyBlock puts block into a user script: replacing an earlier
// block, else after the #! line, else at the top.
func withHuskyBlock(s, block string) string {
	if i, j, ok := findHuskyBlock(s); ok {
		return s[:i] + block + s[j:]
	}
	at := 0
	if strings.HasPrefix(s, "#!") {
		if nl := strings.IndexByte(s, '\n'); nl >= 0 {
			at = nl + 1
		} else {
			return s + "\n" + block
		}
	}
	return s[:at] + block + s[at:]
}

// withoutHuskyBlock removes swarm-guard's block.
func withoutHuskyBlock(s string) (string, bool) {
	i, j, ok := findHuskyBlock(s)
	if !ok {
		return s, false
	}
	return s[:i] + s[j:], true
}

func planHusky(o Options) ([]Change, []string, error) {
	var changes []Change
	for _, name := range HookNames {
		path := filepath.Join(o.Git.Husky, name)
		block := huskyBlock(name, o.Binary)
		old, err := readOptional(path)
		if err != nil {
			return nil, nil, err
		}
		summary := "husky user script: runs swarm-guard first"
		if old == nil {
			data := []byte(huskyNew + block)
			changes = append(changes, Change{Path: path, Action: "create", Summary: summary,
				do: func() error { return createRecorded(o.StateDir, path, data, 0o755) }})
			continue
		}
		updated := []byte(withHuskyBlock(string(old), block))
		if bytes.Equal(updated, old) {
			changes = append(changes, Change{Path: path, Action: "unchanged", Summary: summary})
			continue
		}
		mode := fileMode(path, 0o755)
		changes = append(changes, Change{Path: path, Action: "update", Summary: summary + " (a marked block at the top)",
			do: func() error { return writeAtomic(path, updated, mode) }})
	}
	return changes, nil, nil
}

// planHuskyRemoval takes swarm-guard's block out of the husky user
// scripts, or removes a script install created.
func planHuskyRemoval(o Options, rec *record) ([]Change, error) {
	var changes []Change
	for _, name := range HookNames {
		path := filepath.Join(o.Git.Husky, name)
		cur, err := readOptional(path)
		if err != nil {
			return nil, err
		}
		rest, found := withoutHuskyBlock(string(cur))
		if !found {
			continue
		}
		if rec.created(path) && rest == huskyNew {
			changes = append(changes, Change{Path: path, Action: "remove", Summary: "the husky user script install created",
				do: func() error { return removeRecorded(o.StateDir, path) }})
			continue
		}
		mode := fileMode(path, 0o755)
		changes = append(changes, Change{Path: path, Action: "update", Summary: "swarm-guard's block removed",
			do: func() error {
				if err := writeAtomic(path, []byte(rest), mode); err != nil {
					return err
				}
				return forget(o.StateDir, path)
			}})
	}
	return changes, nil
}
