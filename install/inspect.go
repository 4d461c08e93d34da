package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
)

// What doctor asks about an installation.

// SettingsState is what the Claude Code settings file holds.
type SettingsState struct {
	Path   string
	Exists bool
	Err    error               // the file is not valid JSON (Claude Code then runs no hooks)
	Ours   map[string][]string // swarm-guard commands per hook event
	// OnFailureBlock: every swarm-guard handler has "onFailure": "block".
	OnFailureBlock bool
}

// InspectSettings reads the settings file of the worktree at root.
func InspectSettings(root string) SettingsState {
	s := SettingsState{Path: clientconfig.SettingsPath(root)}
	data, err := os.ReadFile(s.Path)
	if errors.Is(err, os.ErrNotExist) {
		return s
	}
	s.Exists = true
	if err != nil {
		s.Err = err
		return s
	}
	if err := clientconfig.ValidSettings(data); err != nil {
		s.Err = err
		return s
	}
	s.Ours = clientconfig.OurHookCommands(data)
	s.OnFailureBlock = clientconfig.OnFailureBlock(data)
	return s
}

// CommandBinary returns the executable a hook command runs: its first
// shell word, as clientconfig.HookCommand writes it.
func CommandBinary(command string) string {
	w, _, _ := shellWord(strings.TrimSpace(command))
	return w
}

// HookState is what one installed git hook looks like.
type HookState struct {
	Name       string
	Path       string // the file swarm-guard's part is in (a husky user script with husky)
	Exists     bool
	Ours       bool   // swarm-guard's hook file, or a husky script with swarm-guard's block
	Runnable   bool   // git will run it: the hook file (husky: husky's runner) exists and is executable
	RunnerPath string // the file git runs
	Binary     string // the swarm-guard path the hook calls first
	Chained    string // the chained earlier hook, "" when none
	// Via says how git reaches swarm-guard's hook when it is not the hook
	// file itself ("pre-commit's migration mode runs pre-commit.legacy").
	Via string
	// MovedTo is where a hook manager moved swarm-guard's hook, where git
	// no longer runs it ("pre-commit.old"); Manager is who did.
	MovedTo, Manager string
	// With lefthook, Path is lefthook's config: Lefthook is set, Stale
	// says a swarm-guard command is there but not the one install writes,
	// and Runnable that git runs lefthook's hook (RunnerPath) for it.
	Lefthook bool
	Stale    bool
	Err      error // lefthook's config cannot be read
}

// InspectGitHooks reads swarm-guard's git hooks where git runs them.
func InspectGitHooks(g *GitHooks) []HookState {
	if g.Lefthook != nil && g.Husky == "" {
		return inspectLefthookHooks(g)
	}
	var out []HookState
	for _, name := range HookNames {
		st := HookState{Name: name, Path: filepath.Join(g.Dir, name), RunnerPath: filepath.Join(g.Dir, name)}
		if g.Husky != "" {
			st.Path = filepath.Join(g.Husky, name)
		}
		data, err := os.ReadFile(st.Path)
		st.Exists = err == nil
		st.Runnable = isExecutable(st.RunnerPath)
		if g.Husky != "" {
			if i, j, ok := findHuskyBlock(string(data)); ok {
				st.Ours = true
				st.Binary = assignedWord(string(data)[i:j], "swarm_guard=")
			}
		} else if IsOurGitHook(data) {
			st.Ours = true
			st.Binary = assignedWord(string(data), "sg=")
			if _, err := os.Lstat(st.Path + ChainSuffix); err == nil {
				st.Chained = st.Path + ChainSuffix
			}
		} else if migrationMode(st.Path, data) {
			legacy, _ := os.ReadFile(legacyName(st.Path))
			st.Ours, st.Via = true, "pre-commit's hook runs "+filepath.Base(legacyName(st.Path))+" (swarm-guard's) first"
			st.Binary = assignedWord(string(legacy), "sg=")
			if _, err := os.Lstat(st.Path + ChainSuffix); err == nil {
				st.Chained = st.Path + ChainSuffix
			}
		} else if copies := ourCopies(g.Dir, name); st.Exists && len(copies) > 0 {
			st.MovedTo, st.Manager = filepath.Base(copies[0]), Manager(data)
		}
		out = append(out, st)
	}
	return out
}

// assignedWord returns the value of the first line "<prefix><word>".
func assignedWord(script, prefix string) string {
	for _, line := range strings.Split(script, "\n") {
		if rest, ok := strings.CutPrefix(line, prefix); ok {
			w, _, _ := shellWord(rest)
			return w
		}
	}
	return ""
}

func inspectLefthookHooks(g *GitHooks) []HookState {
	cmds, err := InspectLefthook(g.Lefthook.Path)
	var out []HookState
	for _, name := range HookNames {
		st := HookState{Name: name, Path: g.Lefthook.Path, RunnerPath: filepath.Join(g.Dir, name), Lefthook: true}
		st.Exists = !errors.Is(err, os.ErrNotExist)
		if err != nil && st.Exists {
			st.Err = err
		}
		c := cmds[name]
		st.Ours, st.Stale = c.Ours, c.Present && !c.Ours
		runner, rerr := os.ReadFile(st.RunnerPath)
		st.Runnable = rerr == nil && Manager(runner) == "lefthook" && !IsOurGitHook(runner) && isExecutable(st.RunnerPath)
		st.Via = "run by lefthook"
		out = append(out, st)
	}
	return out
}
