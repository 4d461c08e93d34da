package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("u", false, "update testscript golden sections")

// scriptCommands are the programs testscript scripts can exec. Test files
// add helpers (a fake claude, the secrets scanner) from their init funcs.
var scriptCommands = map[string]func(){"swarm-guard": main}

func TestMain(m *testing.M) {
	testscript.Main(m, scriptCommands)
}

func TestScript(t *testing.T) {
	t.Parallel()
	testscript.Run(t, scriptParams(filepath.Join("..", "..", "testdata", "script")))
}

// scriptParams sets up every script hermetically: its own HOME, a git
// identity, no system or global git config, no swarm-guard or Claude Code
// variables inherited from the machine running the tests.
func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			home := filepath.Join(e.WorkDir, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			for k, v := range map[string]string{
				"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"), "XDG_STATE_HOME": filepath.Join(home, ".local", "state"),
				"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": filepath.Join(home, ".gitconfig"),
				"GIT_AUTHOR_NAME": "Test Agent", "GIT_AUTHOR_EMAIL": "agent@example.com",
				"GIT_COMMITTER_NAME": "Test Agent", "GIT_COMMITTER_EMAIL": "agent@example.com",
				"GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z",
			} {
				e.Setenv(k, v)
			}
			e.Setenv("LEFTHOOK_DIR", realLefthookDir())
			// Decisions that scan for secrets must not hit the one-second
			// deadline on a loaded test machine (deadline_test.go).
			e.Setenv(envTestDeadline, "1m")
			// testscript puts the registered commands (swarm-guard, ...)
			// in a directory at the front of PATH: scripts that narrow
			// PATH keep them with $SG_TESTBIN.
			e.Setenv("SG_TESTBIN", filepath.SplitList(os.Getenv("PATH"))[0])
			for k, v := range goEnvForTools() {
				e.Setenv(k, v)
			}
			unsetEnv(e, "SWARM_GUARD_AGENT_ID", "AGENT_ID", "SWARM_GUARD_SESSION", "SWARM_GUARD_RUN", "SWARM_GUARD_TRUST", "SWARM_GUARD_MODE",
				"CLAUDE_PROJECT_DIR", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR",
				"GEMINI_CLI", "QWEN_CODE", "OPENCODE", "COPILOT_CLI", "CODEX_MANAGED_BY_NPM", "CODEX_THREAD_ID")
			return os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"), 0o644)
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "bash", "git":
				_, err := exec.LookPath(cond)
				return err == nil, nil
			case "lefthook":
				return realLefthookDir() != "", nil
			case "pre-commit":
				_, err := exec.LookPath("pre-commit")
				return err == nil, nil
			}
			return false, errors.New("unknown condition " + cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":             cmdExitcode,
			"claude-settings-hook": cmdClaudeSettingsHook,
			"client-hook":          cmdClientHook,
			"gen-long-command":     cmdGenLongCommand,
			"expand":               cmdExpand,
		},
	}
}

// cmdGenLongCommand writes a PreToolUse payload whose Bash command is N
// bytes long: gen-long-command N FILE.
func cmdGenLongCommand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gen-long-command N FILE")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	cmd := "echo " + strings.Repeat("a", n-len("echo "))
	payload := `{"session_id":"s","cwd":"` + ts.Getenv("WORK") + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(payload), 0o644))
}

// cmdExpand replaces $WORK and other variables in files, which testscript
// leaves as written: expand FILE...
func cmdExpand(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: expand FILE...")
	}
	for _, f := range args {
		data, err := os.ReadFile(ts.MkAbs(f))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(os.Expand(string(data), ts.Getenv)), 0o644))
	}
}

// unsetEnv removes variables: set to "" they would still mean something
// (GIT_DIR="" is an error for git).
func unsetEnv(e *testscript.Env, names ...string) {
	kept := e.Vars[:0]
	for _, kv := range e.Vars {
		drop := false
		for _, n := range names {
			if strings.HasPrefix(kv, n+"=") {
				drop = true
			}
		}
		if !drop {
			kept = append(kept, kv)
		}
	}
	e.Vars = kept
}

// cmdExitcode runs a program and requires an exact exit status:
//
//	exitcode 2 swarm-guard hook
//
// testscript's own `! exec` only knows "non-zero", and for a Claude Code
// hook 1 (the call goes ahead) and 2 (the call is blocked) are opposites.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("%v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
