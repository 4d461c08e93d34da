package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// claudeEnv names the claude executable make e2e installed; with the
// binaries (e2eharness.BinEnv) it is what the client tests need.
const claudeEnv = "SWARM_GUARD_E2E_CLAUDE"

// clientPath returns the client, or skips the test.
func clientPath(t *testing.T) string {
	t.Helper()
	claude := os.Getenv(claudeEnv)
	if claude == "" || os.Getenv(e2eharness.BinEnv) == "" {
		t.Skipf("real-client test: run it with make e2e (needs %s and %s)", claudeEnv, e2eharness.BinEnv)
	}
	return claude
}

// The scenarios are testdata/*.txtar (e2eharness.Scenario). Sections:
//
//	options    one per line: skip REASON (a feature not landed yet; run it
//	           anyway with SWARM_GUARD_E2E_RUN_SKIPPED=1) | no-install | install ARG... |
//	           remove-binary | args ARG... (replace --dangerously-skip-permissions) |
//	           env NAME=VALUE | launcher run ARG... (start the client through
//	           swarm-guard run ARG... --)
//	setup.sh   bash, run in the agent's worktree after install
//	calls      one tool call per line: [@MARKER] TOOL {json input}; @MARKER
//	           makes it a call of the subagent whose prompt holds [e2e:MARKER]
//	expect     one per line: exit N|nonzero | toolrequests N |
//	           output contains TEXT (stdout+stderr of the client or launcher) |
//	           N ok|error|missing | N contains TEXT | N lacks TEXT |
//	           N clean (swarm-guard's message follows the client's own
//	           label directly: no character of the hook command before it)
//	           (N counts calls from 1; ok/error is the tool_result's is_error;
//	           TEXT is matched case-sensitively against all the model read
//	           about the call: the tool_result and the hook messages the
//	           client adds after it)
//	check.sh   bash, run in the agent's worktree at the end; must exit 0
//
// Calls, expectations and scripts see $WORK (the agent's worktree, the
// cwd), $OTHER (another agent's worktree of the same repository), $REMOTE
// (the bare remote), $OUTSIDE (a directory outside every worktree, holding
// victim/file.txt), $SG (the swarm-guard the hooks run), $PLUGIN_SRC (this
// source tree, a Claude Code plugin), $MCP_CONFIG (an
// MCP config naming the stdio server "filesystem", see mcpserver_test.go), $SECRET,
// $SECRET_LINE and $SECRET_B64 (a fake credential made for this run, the
// line of code holding it, and that line base64-encoded), and $BARE_SECRET
// (a fake credential with no known prefix, for environment variables). In calls the
// values are JSON-escaped.
var knownOptions = []string{"skip", "no-install", "install", "remove-binary", "args", "env", "launcher"}

func loadScenarios(t *testing.T) []e2eharness.Scenario {
	return e2eharness.LoadScenarios(t, "testdata", knownOptions...)
}

// TestClient plays every scenario through the real client.
func TestClient(t *testing.T) {
	claude := clientPath(t)
	for _, sc := range loadScenarios(t) {
		t.Run(sc.Name, func(t *testing.T) {
			// Scenarios share nothing; two at a time keep make e2e short
			// (go test runs up to GOMAXPROCS of them at once).
			t.Parallel()
			if reason, ok := sc.Option("skip"); ok && os.Getenv("SWARM_GUARD_E2E_RUN_SKIPPED") == "" {
				t.Skip(strings.Join(reason, " "))
			}
			playScenario(t, claude, sc)
		})
	}
}

// world is one throwaway setup (e2eharness.World) with another agent's
// worktree, the Claude Code client on PATH, $PLUGIN_SRC and $MCP_CONFIG.
type world struct {
	*e2eharness.World
	claude string // the client's executable
}

func newWorld(t *testing.T, claude string) *world {
	t.Helper()
	w := &world{World: e2eharness.NewWorld(t, e2eharness.WorldOptions{OtherWorktree: true, PathDirs: []string{filepath.Dir(claude)}, Fakes: fakes()}), claude: claude}
	// The source tree, which is also a Claude Code plugin (.claude-plugin/,
	// hooks/hooks.json): scenarios copy it for --plugin-dir.
	src, err := filepath.Abs(filepath.Join("..", "..", ".."))
	must(t, err)
	w.Vars["PLUGIN_SRC"] = src
	mcpConfig, err := writeMCPConfig(w.Home)
	must(t, err)
	w.Vars["MCP_CONFIG"] = mcpConfig
	return w
}

// install runs swarm-guard install in the agent's worktree.
func (w *world) install(t *testing.T, args ...string) {
	t.Helper()
	w.SwarmGuard(t, append([]string{"install"}, args...)...)
}

// parseCalls turns "TOOL {json}" lines into calls.
func (w *world) parseCalls(t *testing.T, lines []string) []Call {
	t.Helper()
	var calls []Call
	for _, l := range lines {
		conv := ""
		if strings.HasPrefix(l, "@") {
			conv, l, _ = strings.Cut(l[1:], " ")
		}
		tool, input, _ := strings.Cut(strings.TrimSpace(l), " ")
		input = w.ExpandJSON(strings.TrimSpace(input))
		if !json.Valid([]byte(input)) {
			t.Fatalf("call %q: input is not valid JSON after expansion", l)
		}
		calls = append(calls, Call{Tool: tool, Input: json.RawMessage(input), Conv: conv})
	}
	return calls
}

// runOutcome is what one client run left behind.
type runOutcome struct {
	exitCode int
	output   string // stdout and stderr, for failure messages
	server   *Server
}

// runClient starts claude -p (or the launcher in front of it) against a
// stand-in playing calls, in dir, and waits for it.
func (w *world) runClient(t *testing.T, dir string, calls []Call, launcher, claudeArgs, extraEnv []string) runOutcome {
	t.Helper()
	srv, err := NewServer(calls)
	must(t, err)
	defer srv.Close()
	args := []string{"-p", "Follow the script.", "--output-format", "stream-json", "--verbose"}
	args = append(args, claudeArgs...)
	name := w.claude
	if len(launcher) > 0 {
		args = append(append(append([]string{}, launcher[1:]...), "--", w.claude), args...)
		name = launcher[0]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = w.Environ(append([]string{
		"ANTHROPIC_BASE_URL=" + srv.URL(),
		"ANTHROPIC_API_KEY=dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"IS_SANDBOX=1",
	}, extraEnv...)...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	code := 0
	if err != nil {
		code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if ctx.Err() != nil {
			t.Fatalf("the client did not finish within 90 s:\n%s", tail(out.String(), 3000))
		}
	}
	return runOutcome{exitCode: code, output: out.String(), server: srv}
}

func playScenario(t *testing.T, claude string, sc e2eharness.Scenario) {
	w := newWorld(t, claude)
	if _, skip := sc.Option("no-install"); !skip {
		args, _ := sc.Option("install")
		w.install(t, args...)
	}
	if sc.Setup != "" {
		w.Sh(t, w.Work, sc.Setup)
	}
	if _, ok := sc.Option("remove-binary"); ok {
		must(t, os.Remove(w.Vars["SG"]))
	}
	claudeArgs, ok := sc.Option("args")
	if !ok {
		claudeArgs = []string{"--dangerously-skip-permissions"}
	}
	for i, a := range claudeArgs {
		claudeArgs[i] = w.Expand(a)
	}
	var extraEnv []string
	for _, e := range sc.OptionValues("env") {
		extraEnv = append(extraEnv, w.Expand(e))
	}
	var launcher []string
	if l, ok := sc.Option("launcher"); ok {
		if len(l) == 0 || l[0] != "run" {
			t.Fatalf("launcher: only \"run\" is known, got %v", l)
		}
		launcher = append([]string{w.Vars["SG"]}, l...)
	}
	calls := w.parseCalls(t, sc.Calls)
	res := w.runClient(t, w.Work, calls, launcher, claudeArgs, extraEnv)
	results, arrived := res.server.Results()
	failed := false
	fail := func(format string, args ...any) {
		t.Helper()
		failed = true
		t.Errorf(format, args...)
	}
	wantExit := "0"
	for _, e := range sc.Expect {
		e = w.Expand(e)
		f := strings.Fields(e)
		switch {
		case len(f) < 2:
			t.Fatalf("bad expect line %q", e)
		case f[0] == "exit":
			wantExit = f[1]
		case f[0] == "output" && len(f) > 2 && f[1] == "contains":
			if text := strings.TrimSpace(strings.TrimPrefix(e, "output contains")); !strings.Contains(res.output, text) {
				fail("%s: the client's (or launcher's) output does not contain %q", e, text)
			}
		case f[0] == "toolrequests":
			if n, _ := strconv.Atoi(f[1]); res.server.ToolRequests() != n {
				fail("%s: the stand-in got %d requests with tools", e, res.server.ToolRequests())
			}
		default:
			// N, or A|B: the expectation holds for at least one of the calls
			// (when either of two designs may stop the agent).
			var errs []string
			for _, alt := range strings.Split(f[0], "|") {
				n, err := strconv.Atoi(alt)
				if err != nil || n < 1 || n > len(calls) || len(f) < 2 {
					t.Fatalf("bad expect line %q", e)
				}
				text := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(e, f[0]), " "+f[1]))
				msg := checkResult(f[1], text, n, results[n-1], arrived[n-1])
				if msg == "" {
					errs = nil
					break
				}
				errs = append(errs, msg)
			}
			if len(errs) > 0 {
				fail("%s: %s", e, strings.Join(errs, "; "))
			}
		}
	}
	switch {
	case wantExit == "nonzero" && res.exitCode == 0:
		fail("exit: want non-zero, got 0")
	case wantExit != "nonzero" && strconv.Itoa(res.exitCode) != wantExit:
		fail("exit: want %s, got %d", wantExit, res.exitCode)
	}
	if sc.Check != "" {
		cmd := exec.Command("bash", "-c", sc.Check)
		cmd.Dir = w.Work
		cmd.Env = w.Environ()
		if out, err := cmd.CombinedOutput(); err != nil {
			fail("check.sh failed (%v):\n%s", err, out)
		}
	}
	if failed || testing.Verbose() && os.Getenv("SWARM_GUARD_E2E_DEBUG") != "" {
		for i, r := range results {
			t.Logf("call %d %s: arrived=%v is_error=%v: %q", i+1, calls[i].Tool, arrived[i], r.IsError, r.Told())
		}
		if p := res.server.Unknown(); len(p) > 0 {
			t.Logf("requests the stand-in did not know: %v", p)
		}
		t.Logf("client exit %d, output tail:\n%s", res.exitCode, tail(res.output, 3000))
	}
}

// checkResult checks one expectation on call n; "" means it holds.
func checkResult(what, text string, n int, r Result, arrived bool) string {
	switch what {
	case "missing":
		if arrived {
			return fmt.Sprintf("call %d got a result: %q", n, r.Told())
		}
		return ""
	case "ok", "error", "contains", "lacks", "clean":
		if !arrived {
			return fmt.Sprintf("call %d never got a result", n)
		}
	default:
		return fmt.Sprintf("unknown expectation %q", what)
	}
	switch what {
	case "ok", "error":
		if r.IsError != (what == "error") {
			return fmt.Sprintf("call %d is_error=%v, result: %q", n, r.IsError, r.Told())
		}
	case "contains":
		if !strings.Contains(r.Told(), text) {
			return fmt.Sprintf("what the model read after call %d does not contain %q: %q", n, text, r.Told())
		}
	case "lacks":
		if strings.Contains(r.Told(), text) {
			return fmt.Sprintf("what the model read after call %d contains %q: %q", n, text, r.Told())
		}
	case "clean":
		if before, ok := beforeMessage(r.Told()); !ok {
			return fmt.Sprintf("what the model read after call %d holds no swarm-guard message: %q", n, r.Told())
		} else if before != "" {
			return fmt.Sprintf("what the model read after call %d has %d characters before swarm-guard's message besides the client's own label: %q", n, len(before), r.Told())
		}
	}
	return ""
}

// clientLabel is what Claude Code itself puts in front of a hook's
// message: "PreToolUse:Bash hook error: " for a denial (2.1.330 frames
// every PreToolUse denial so, the permissionDecision JSON's reason
// included) and "PostToolUse:Bash hook additional context: " for what the
// model reads beside a result.
var clientLabel = regexp.MustCompile(`^(PreToolUse|PostToolUse|PostToolUseFailure):\S+ hook (error|additional context): `)

// beforeMessage returns what the model read in front of swarm-guard's own
// message on the line that holds it, without the client's label: ""
// when the message follows the label directly (no hook command, no
// launcher). ok is false when no line holds a swarm-guard message.
func beforeMessage(told string) (before string, ok bool) {
	for _, line := range strings.Split(told, "\n") {
		i := strings.Index(line, "swarm-guard ")
		if i < 0 {
			continue
		}
		head := line[:i]
		if m := clientLabel.FindString(head); m != "" {
			head = head[len(m):]
		}
		return head, true
	}
	return "", false
}

// clientVersion is what claude --version prints, e.g. "2.1.330".
func clientVersion(claude string) string {
	out, err := exec.Command(claude, "--version").Output()
	if err != nil {
		return "(unknown version)"
	}
	v, _, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	return v
}

var (
	tail = e2eharness.Tail
	must = e2eharness.Must
)

// TestScenariosParse checks every scenario file without the client, so
// that make test catches a broken scenario before make e2e runs it.
func TestScenariosParse(t *testing.T) {
	w := &world{World: &e2eharness.World{Vars: e2eharness.StubVars("WORK", "OTHER", "REMOTE", "OUTSIDE", "SG", "HOME", "MCP_CONFIG", "SECRET", "SECRET_LINE", "SECRET_B64", "BARE_SECRET")}}
	for _, sc := range loadScenarios(t) {
		calls := w.parseCalls(t, sc.Calls)
		if len(calls) == 0 {
			t.Errorf("%s: no calls", sc.File)
		}
		if sc.Doc == "" {
			t.Errorf("%s: no description above the first section", sc.File)
		}
	}
}

// fakes are the world's fake credentials, made afresh for each world.
func fakes() e2eharness.Fakes {
	aws := fakesecret.AWSAccessKeyID()
	return e2eharness.Fakes{Value: aws.Value, Line: aws.Line, Bare: fakesecret.GenericAPIKey().Value}
}
