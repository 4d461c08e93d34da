package clientconfig

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLauncherFollowsTheLookupRule runs the committed Claude Code hook
// command the way Claude Code does (/bin/sh -c COMMAND; bash too, for a
// /bin/sh that is bash, as on macOS) in each
// place the rule looks, and with no binary at all: then it must exit 2, the
// only code Claude Code treats as a block, with the install hint.
func TestLauncherFollowsTheLookupRule(t *testing.T) {
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("%s not installed; skipped", shell)
			continue
		}
		dir := t.TempDir()
		project := filepath.Join(dir, "project dir")
		home := filepath.Join(dir, "home")
		empty := filepath.Join(dir, "empty")
		for _, d := range []string{project, home, empty} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// sh and its helpers must stay reachable: PATH keeps the system
		// directories, which hold no swarm-guard here.
		sysPath := "/usr/bin:/bin"
		run := func(env ...string) (int, string, string) {
			cmd := exec.Command(shell, "-c", HookCommand())
			cmd.Env = append([]string{"CLAUDE_PROJECT_DIR=" + project, "HOME=" + home}, env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			cmd.Stdin = strings.NewReader("{}")
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return code, stdout.String(), stderr.String()
		}
		if _, err := exec.LookPath("swarm-guard"); err == nil {
			sysPath = empty + ":/usr/bin:/bin"
		}
		code, stdout, stderr := run("PATH=" + sysPath)
		if code != 2 || strings.TrimSpace(stderr) != InstallHint {
			t.Fatalf("%s, no binary: exit %d, stderr %q; want 2 and the install hint", shell, code, stderr)
		}
		// What the model reads: the deny JSON's reason, swarm-guard's own
		// one-line message, as for any denial.
		var answer struct {
			HookSpecificOutput struct {
				HookEventName, PermissionDecision, PermissionDecisionReason string
			}
		}
		if err := json.Unmarshal([]byte(stdout), &answer); err != nil {
			t.Fatalf("%s, no binary: stdout %q is not the deny JSON: %v", shell, stdout, err)
		}
		if h := answer.HookSpecificOutput; h.HookEventName != "PreToolUse" || h.PermissionDecision != "deny" || h.PermissionDecisionReason != MissingReason ||
			!strings.HasPrefix(h.PermissionDecisionReason, "swarm-guard blocked this call: ") {
			t.Fatalf("%s, no binary: deny answer %+v", shell, h)
		}
		place := func(path, name string) {
			t.Helper()
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+name+" \"$*\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		// Found in each place, the earlier place winning.
		place(filepath.Join(home, "go", "bin", "swarm-guard"), "gobin")
		place(filepath.Join(home, ".local", "bin", "swarm-guard"), "localbin")
		place(filepath.Join(project, "node_modules", ".bin", "swarm-guard"), "npm")
		place(filepath.Join(dir, "onpath", "swarm-guard"), "path")
		for _, step := range []struct {
			want   string
			remove string
		}{
			{"path hook", filepath.Join(dir, "onpath", "swarm-guard")},
			{"npm hook", filepath.Join(project, "node_modules", ".bin", "swarm-guard")},
			{"localbin hook", filepath.Join(home, ".local", "bin", "swarm-guard")},
			{"gobin hook", ""},
		} {
			code, stdout, stderr := run("PATH=" + filepath.Join(dir, "onpath") + ":" + sysPath)
			if code != 0 || strings.TrimSpace(stdout) != step.want {
				t.Fatalf("%s: exit %d, stdout %q, stderr %q; want %q", shell, code, stdout, stderr, step.want)
			}
			if got := LookupBinary(project, home, func(string) (string, error) {
				p := filepath.Join(dir, "onpath", "swarm-guard")
				if isExecutable(p) {
					return p, nil
				}
				return "", exec.ErrNotFound
			}); !strings.HasSuffix(got, "swarm-guard") || !isExecutable(got) {
				t.Fatalf("LookupBinary = %q while the launcher found %q", got, step.want)
			}
			if step.remove != "" {
				os.Remove(step.remove)
			}
		}
	}
}

// TestPostLauncherRunsTheSibling: the PostToolUse command finds
// swarm-guard by the same rule, then runs swarm-guard-post next to it
// (with --plugin for the plugin); without that sibling the full hook, as
// before; with no swarm-guard at all it blocks, even when a
// swarm-guard-post lies where swarm-guard was looked for.
func TestPostLauncherRunsTheSibling(t *testing.T) {
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("%s not installed; skipped", shell)
			continue
		}
		dir := t.TempDir()
		home, empty, onpath := filepath.Join(dir, "home"), filepath.Join(dir, "empty"), filepath.Join(dir, "on path")
		place := func(path, name string) {
			t.Helper()
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+name+" \"$*\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.MkdirAll(empty, 0o755); err != nil {
			t.Fatal(err)
		}
		run := func(command string) (int, string, string) {
			cmd := exec.Command(shell, "-c", command)
			cmd.Env = []string{"CLAUDE_PROJECT_DIR=" + dir, "HOME=" + home, "PATH=" + onpath + ":" + empty + ":/usr/bin:/bin"}
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr, cmd.Stdin = &stdout, &stderr, strings.NewReader("{}")
			err := cmd.Run()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			return code, strings.TrimSpace(stdout.String()), strings.TrimSpace(stderr.String())
		}
		if _, err := exec.LookPath("swarm-guard"); err == nil {
			t.Skip("a swarm-guard on the system PATH would be found")
		}
		place(filepath.Join(home, "go", "bin", "swarm-guard-post"), "stray post")
		// The events after a tool get no PreToolUse deny JSON, which
		// would name the wrong event: exit 2 and the hint alone.
		for _, command := range []string{PostHookCommand(), FailureHookCommand(), PluginOtherHookCommand()} {
			if code, stdout, stderr := run(command); code != 2 || stdout != "" || stderr != InstallHint {
				t.Fatalf("%s, no swarm-guard: exit %d, stdout %q, stderr %q; want 2 and the install hint alone", shell, code, stdout, stderr)
			}
		}
		place(filepath.Join(onpath, "swarm-guard"), "full")
		for _, tt := range []struct{ command, want string }{{PostHookCommand(), "full hook"}, {PluginPostHookCommand(), "full hook --plugin"}} {
			if code, stdout, stderr := run(tt.command); code != 0 || stdout != tt.want {
				t.Fatalf("%s, no sibling: exit %d, stdout %q, stderr %q; want %q", shell, code, stdout, stderr, tt.want)
			}
		}
		place(filepath.Join(onpath, "swarm-guard-post"), "post")
		for _, tt := range []struct{ command, want string }{{PostHookCommand(), "post"}, {PluginPostHookCommand(), "post --plugin"}} {
			if code, stdout, stderr := run(tt.command); code != 0 || stdout != tt.want {
				t.Fatalf("%s, with the sibling: exit %d, stdout %q, stderr %q; want %q", shell, code, stdout, stderr, tt.want)
			}
		}
		if !IsLauncher(PostHookCommand()) || !IsOurHook(PostHookCommand(), "") {
			t.Fatal("the PostToolUse launcher is not recognised as swarm-guard's: uninstall and doctor would miss it")
		}
	}
}

// TestCommittedFilesHoldNoPath: what install writes into committed files
// is the same whatever binary path the installer runs from.
func TestCommittedFilesHoldNoPath(t *testing.T) {
	a, err := MergeSettings(nil, "/home/alice/go/bin/swarm-guard", true)
	if err != nil {
		t.Fatal(err)
	}
	b, err := MergeSettings(nil, "/opt/bob/swarm-guard", true)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) || bytes.Contains(a, []byte("alice")) {
		t.Fatalf("settings differ by installer:\n%s\n%s", a, b)
	}
	// Exec form substitutes the exact placeholder ${CLAUDE_PROJECT_DIR}
	// into the command text, unquoted; the launcher reads the variable
	// from the environment instead, so a project path with spaces or
	// quotes stays one word.
	if strings.Contains(HookCommand(), "${CLAUDE_PROJECT_DIR}") || strings.Contains(PluginHookCommand(), "${CLAUDE_PROJECT_DIR}") {
		t.Fatalf("the launcher holds the exact ${CLAUDE_PROJECT_DIR} placeholder: %s", HookCommand())
	}
}

// earlierLaunchers are the hook commands earlier installs committed, byte
// for byte: the launcher wrapped in a second sh -c, first with
// $(command -v swarm-guard), then walking PATH itself.
var earlierLaunchers = []string{
	`sh -c 'sg=$(command -v swarm-guard) || for sg in "${CLAUDE_PROJECT_DIR:-.}/node_modules/.bin/swarm-guard" "$HOME/.local/bin/swarm-guard" "$HOME/go/bin/swarm-guard"; do [ -x "$sg" ] && break; done; [ -x "$sg" ] && exec "$sg" hook; echo "swarm-guard: not found on PATH, in node_modules/.bin, ~/.local/bin or ~/go/bin; install it (make install in the swarm-guard source, or npm i -D swarm-guard), then run swarm-guard doctor" >&2; exit 2'`,
	`sh -c 'sg_path=$PATH:; while [ -n "$sg_path" ]; do sg=${sg_path%%:*}/swarm-guard; sg_path=${sg_path#*:}; [ -f "$sg" ] && [ -x "$sg" ] && break; done; [ -f "$sg" ] && [ -x "$sg" ] || for sg in "${CLAUDE_PROJECT_DIR:-.}/node_modules/.bin/swarm-guard" "$HOME/.local/bin/swarm-guard" "$HOME/go/bin/swarm-guard"; do [ -x "$sg" ] && break; done; [ -x "$sg" ] && exec "$sg" hook; echo "swarm-guard: not found on PATH, in node_modules/.bin, ~/.local/bin or ~/go/bin; install it (make install in the swarm-guard source puts it in ~/go/bin), then run swarm-guard doctor" >&2; exit 2'`,
	// An install that wrote the binary's absolute path.
	`'/home/alice/go/bin/swarm-guard' hook`,
}

// TestEarlierLaunchersAreReplaced: settings holding a launcher an earlier
// install committed are recognised as swarm-guard's (doctor), install
// replaces them with the current command (one handler per event, the
// user's own hook kept) and uninstall removes them.
func TestEarlierLaunchersAreReplaced(t *testing.T) {
	for _, c := range []string{HookCommand(), PostHookCommand(), FailureHookCommand(), PluginHookCommand(), PluginPostHookCommand(), PluginOtherHookCommand()} {
		if strings.Contains(c, "'") {
			t.Fatalf("a launcher holds a single quote, so it cannot be wrapped in sh -c '...' as earlier installs did: %s", c)
		}
	}
	if strings.HasPrefix(HookCommand(), "sh -c") {
		t.Fatalf("the current launcher still starts a second shell: %s", HookCommand())
	}
	for _, old := range earlierLaunchers {
		if !IsOurHook(old, "") {
			t.Fatalf("not recognised as swarm-guard's: %s", old)
		}
		settings := `{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": ` + jsonString(old) + `}]}, {"matcher": "Bash", "hooks": [{"type": "command", "command": "echo mine"}]}],
  "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": ` + jsonString(old) + `}]}]}}`
		if cmds := OurHookCommands([]byte(settings)); len(cmds["PreToolUse"]) != 1 || len(cmds["PostToolUse"]) != 1 {
			t.Fatalf("doctor sees %v in settings with %s", cmds, old)
		}
		if ok, _ := HasOurHooks([]byte(settings), bin); ok {
			t.Fatalf("settings with an earlier launcher count as current, so install would keep it: %s", old)
		}
		merged, err := MergeSettings([]byte(settings), bin, false)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(merged), "sh -c") || strings.Contains(string(merged), "alice") {
			t.Fatalf("install kept the earlier launcher:\n%s", merged)
		}
		for _, ev := range ClaudeEvents() {
			if cmds := OurHookCommands(merged)[ev]; len(cmds) != 1 || cmds[0] != HookCommandFor(ev) {
				t.Fatalf("%s after install: %q, want the current launcher once", ev, cmds)
			}
		}
		if !strings.Contains(string(merged), `"echo mine"`) {
			t.Fatalf("install dropped the user's own hook:\n%s", merged)
		}
		removed, err := RemoveSettings([]byte(settings), bin)
		if err != nil {
			t.Fatal(err)
		}
		if HasAnyOurHooks(removed) || !strings.Contains(string(removed), `"echo mine"`) {
			t.Fatalf("uninstall over %s left:\n%s", old, removed)
		}
	}
}

// bin is an installer's binary path: what install writes must not depend
// on it.
const bin = "/opt/swarm-guard/bin/swarm-guard"

func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestRunSettingsReuseTheProjectLauncher: swarm-guard run's --settings use
// the project's launcher command when it is one (the client then runs it
// once, not once per file); an absolute-path command, none or no file
// gets the current launcher.
func TestRunSettingsReuseTheProjectLauncher(t *testing.T) {
	for _, tt := range []struct {
		project []byte
		want    string
	}{
		{nil, HookCommand()},
		{[]byte(`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": ` + jsonString(earlierLaunchers[1]) + `}]}]}}`), earlierLaunchers[1]},
		{[]byte(`{"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": ` + jsonString(earlierLaunchers[2]) + `}]}]}}`), HookCommand()},
		{[]byte(`not json`), HookCommand()},
	} {
		doc, err := RunSettings(bin, true, tt.project)
		if err != nil {
			t.Fatal(err)
		}
		cmds := OurHookCommands(doc)
		if got := cmds["PreToolUse"]; len(got) != 1 || got[0] != tt.want {
			t.Errorf("project %s: run's PreToolUse command %q, want %q", tt.project, got, tt.want)
		}
		// Events the project does not register get the current launcher.
		if got := cmds["PostToolUse"]; len(got) != 1 || got[0] != PostHookCommand() {
			t.Errorf("project %s: run's PostToolUse command %q, want the current launcher", tt.project, got)
		}
		if !OnFailureBlock(doc) {
			t.Errorf("run's settings lost onFailure: block: %s", doc)
		}
	}
}
