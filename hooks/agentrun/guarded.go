package agentrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
)

// run never starts an unguarded agent. Before the start it refuses the
// ways claude offers to skip the project's hooks, and passes the guard's
// hooks itself (--settings), so they hold even when .claude/settings.json
// was deleted or edited. During the run it requires proof that they run:
// the hook marks the run live (liveMarker) on its first call, and a tool
// result before that mark stops the agent.

// liveDir holds one marker per run whose hook has run.
const liveDir = "live"

// liveMarker is the file the hook creates for run id under stateDir.
func liveMarker(stateDir, runID string) string {
	return filepath.Join(stateDir, liveDir, filepath.Base(runID))
}

// guardAgent checks claude's arguments and environment, and adds the
// guard's own hooks; root is the worktree claude starts in.
func (r *runner) guardAgent(root string) error {
	if ok, err := r.guardOtherClient(root); ok {
		return err
	}
	if !isClaude(r.argv[0]) {
		return nil
	}
	refuse := func(why string) error {
		return &unguardedError{"not starting claude: " + why + "; swarm-guard run only starts agents that run the guard's hooks"}
	}
	if v := r.c.Getenv("CLAUDE_CODE_SIMPLE"); v != "" && v != "0" {
		return refuse("CLAUDE_CODE_SIMPLE is set, which makes claude skip every hook (unset it)")
	}
	args := r.argv[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		name, val, hasVal := strings.Cut(a, "=")
		next := func() string {
			if hasVal {
				return val
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "--bare":
			return refuse("--bare skips the project's hooks")
		case "--setting-sources":
			v := next()
			if !strings.Contains(","+v+",", ",project,") {
				return refuse("--setting-sources " + v + " leaves out the project settings that hold the guard's hooks (include project)")
			}
		case "--settings":
			v := next()
			data := []byte(v)
			if !strings.HasPrefix(strings.TrimSpace(v), "{") {
				b, err := os.ReadFile(v)
				if err != nil {
					return refuse("cannot read --settings " + v + ": " + err.Error())
				}
				data = b
			}
			var s struct {
				DisableAllHooks *bool `json:"disableAllHooks"`
			}
			if err := json.Unmarshal(data, &s); err != nil {
				return refuse("--settings " + v + " is not valid JSON, so what it changes cannot be checked")
			}
			if s.DisableAllHooks != nil && *s.DisableAllHooks {
				return refuse("--settings sets disableAllHooks")
			}
		}
	}
	exe, err := r.c.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the swarm-guard executable for the agent's hooks: %w", err)
	}
	// The project's own settings, so that an identical command is not
	// run twice (RunSettings); none or unreadable: the current command.
	project, _ := os.ReadFile(clientconfig.SettingsPath(root))
	doc, err := clientconfig.RunSettings(exe, true, project)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.stateDir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %v", r.stateDir, err)
	}
	file := filepath.Join(r.stateDir, "settings-"+r.runID+".json")
	if err := os.WriteFile(file, doc, 0o600); err != nil {
		return fmt.Errorf("cannot write %s: %v", file, err)
	}
	r.argv = append([]string{r.argv[0], "--settings", file}, r.argv[1:]...)
	r.guarded = true
	return nil
}

// unguardedError is a claude that would run without the guard's hooks
// (budget.OutcomeUnguarded).
type unguardedError struct{ msg string }

func (e *unguardedError) Error() string { return e.msg }

// hooksLive reports whether the run may go on after this stream line: a
// tool result is fine once the guard's hook has run for this run.
func (r *runner) hooksLive(line []byte) bool {
	if !r.guarded || r.live || !bytes.Contains(line, []byte(`"tool_result"`)) {
		return true
	}
	if _, err := os.Stat(liveMarker(r.stateDir, r.runID)); err == nil {
		r.live = true
	}
	return r.live
}
