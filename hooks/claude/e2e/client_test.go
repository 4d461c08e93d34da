package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
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

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// The client tests need the real client and the built binaries; make e2e
// provides both.
const (
	claudeEnv = "SWARM_GUARD_E2E_CLAUDE" // path of the claude executable
	binEnv    = "SWARM_GUARD_E2E_BIN"    // directory holding swarm-guard, swarm-guard-secrets and swarm-guard-post
	// rootEnv is where the scenarios' repositories live. It must not be
	// under a directory the default policy makes writable (/tmp, /var/tmp,
	// $TMPDIR): there, "outside the worktree" would be writable.
	rootEnv = "SWARM_GUARD_E2E_ROOT"
)

// clientTools returns the client and the binaries, or skips the test.
func clientTools(t *testing.T) (claude, bin string) {
	t.Helper()
	claude, bin = os.Getenv(claudeEnv), os.Getenv(binEnv)
	if claude == "" || bin == "" {
		t.Skipf("real-client test: run it with make e2e (needs %s and %s)", claudeEnv, binEnv)
	}
	return claude, bin
}

// scenario is one testdata/*.txtar file. Sections:
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
type scenario struct {
	name     string
	doc      string
	options  [][]string
	setup    string
	calls    []string
	expect   []string
	check    string
	filePath string
}

var knownOptions = map[string]bool{"skip": true, "no-install": true, "install": true, "remove-binary": true, "args": true, "env": true, "launcher": true}

func loadScenarios(t *testing.T) []scenario {
	t.Helper()
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios in testdata (%v)", err)
	}
	var out []scenario
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := scenario{name: strings.TrimSuffix(filepath.Base(f), ".txtar"), doc: strings.TrimSpace(string(a.Comment)), filePath: f}
		for _, file := range a.Files {
			body := string(file.Data)
			switch file.Name {
			case "options":
				for _, l := range lines(body) {
					o := strings.Fields(l)
					if !knownOptions[o[0]] {
						t.Fatalf("%s: unknown option %q", f, o[0])
					}
					sc.options = append(sc.options, o)
				}
			case "setup.sh":
				sc.setup = body
			case "calls":
				sc.calls = lines(body)
			case "expect":
				sc.expect = lines(body)
			case "check.sh":
				sc.check = body
			default:
				t.Fatalf("%s: unknown section %q", f, file.Name)
			}
		}
		if len(sc.expect) == 0 && sc.check == "" {
			t.Fatalf("%s: a scenario must assert something (expect or check.sh)", f)
		}
		out = append(out, sc)
	}
	return out
}

// lines returns the non-empty lines that are not # comments.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

func (sc scenario) option(name string) ([]string, bool) {
	for _, o := range sc.options {
		if len(o) > 0 && o[0] == name {
			return o[1:], true
		}
	}
	return nil, false
}

// TestClient plays every scenario through the real client.
func TestClient(t *testing.T) {
	claude, bin := clientTools(t)
	for _, sc := range loadScenarios(t) {
		t.Run(sc.name, func(t *testing.T) {
			// Scenarios share nothing; two at a time keep make e2e short
			// (go test runs up to GOMAXPROCS of them at once).
			t.Parallel()
			if reason, ok := sc.option("skip"); ok && os.Getenv("SWARM_GUARD_E2E_RUN_SKIPPED") == "" {
				t.Skip(strings.Join(reason, " "))
			}
			playScenario(t, claude, bin, sc)
		})
	}
}

// world is one throwaway setup: a bare remote, the agent's clone, another
// agent's worktree, a place outside both, and a HOME of its own.
type world struct {
	root, home, tmp, bin   string
	remote, work, other    string
	outside, claudeBinPath string
	vars                   map[string]string
}

func newWorld(t *testing.T, claude, bin string) *world {
	t.Helper()
	base := os.Getenv(rootEnv)
	if base == "" {
		t.Fatalf("%s is not set (make e2e sets it)", rootEnv)
	}
	must(t, os.MkdirAll(base, 0o755))
	root, err := os.MkdirTemp(base, "world-")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(root) })
	w := &world{
		root:    root,
		home:    filepath.Join(root, "home"),
		tmp:     filepath.Join(root, "tmp"),
		bin:     filepath.Join(root, "bin"),
		remote:  filepath.Join(root, "remote.git"),
		work:    filepath.Join(root, "agent-1"),
		other:   filepath.Join(root, "agent-2"),
		outside: filepath.Join(root, "outside"),
	}
	w.claudeBinPath = claude
	for _, d := range []string{w.home, w.tmp, w.bin, filepath.Join(w.outside, "victim")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(w.outside, "victim", "file.txt"), []byte("not the agent's\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(w.home, ".gitconfig"), []byte("[user]\n\tname = e2e agent\n\temail = agent@e2e.invalid\n[init]\n\tdefaultBranch = main\n"), 0o644))
	// Copies of the binaries, so that a scenario may delete its own.
	for _, name := range []string{"swarm-guard", "swarm-guard-secrets", "swarm-guard-post"} {
		data, err := os.ReadFile(filepath.Join(bin, name))
		must(t, err)
		must(t, os.WriteFile(filepath.Join(w.bin, name), data, 0o755))
	}
	secret := fakesecret.AWSAccessKeyID()
	w.vars = map[string]string{
		"WORK": w.work, "OTHER": w.other, "REMOTE": w.remote, "OUTSIDE": w.outside,
		"SG": filepath.Join(w.bin, "swarm-guard"), "HOME": w.home,
		"SECRET": secret.Value, "SECRET_LINE": secret.Line,
		"SECRET_B64": base64.StdEncoding.EncodeToString([]byte(secret.Line + "\n")),
		// A credential with no keyword and no known prefix: gitleaks cannot
		// tell it, printed alone, from any other word.
		"BARE_SECRET": fakesecret.GenericAPIKey().Value,
	}
	// The source tree, which is also a Claude Code plugin (.claude-plugin/,
	// hooks/hooks.json): scenarios copy it for --plugin-dir.
	src, err := filepath.Abs(filepath.Join("..", "..", ".."))
	must(t, err)
	w.vars["PLUGIN_SRC"] = src
	mcpConfig, err := writeMCPConfig(w.home)
	must(t, err)
	w.vars["MCP_CONFIG"] = mcpConfig
	// The remote holds main and the agent's branch; the agent's clone has
	// agent-1 checked out and another agent works in a second worktree.
	w.sh(t, root, `
set -e
git init -q --bare remote.git
git clone -q remote.git seed 2>/dev/null
cd seed
echo "# demo" > README.md
git add README.md
git commit -qm "initial commit"
git push -q origin HEAD:main HEAD:agent-1 HEAD:agent-2
cd ..
rm -rf seed
git clone -q remote.git agent-1
cd agent-1
git checkout -q agent-1
git worktree add -q ../agent-2 agent-2
`)
	return w
}

// env is the environment of the client, its hooks and the scripts: a
// throwaway HOME and TMPDIR (so that the policy's {temp} is not the
// directory the scenario lives in) and nothing of the test's own.
func (w *world) env(extra ...string) []string {
	// swarm-guard on PATH, as after make install: the committed hook
	// command finds it there.
	path := w.bin + ":" + filepath.Dir(w.claudeBinPath) + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
	env := []string{
		"PATH=" + path, "HOME=" + w.home, "TMPDIR=" + w.tmp, "LANG=C.UTF-8",
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(w.home, ".cache"),
	}
	for k, v := range w.vars {
		env = append(env, k+"="+v)
	}
	return append(env, extra...)
}

func (w *world) sh(t *testing.T, dir, script string, extra ...string) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = w.env(extra...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("script failed (%v):\n%s\n--- script ---\n%s", err, out, script)
	}
}

// install runs swarm-guard install in the agent's worktree.
func (w *world) install(t *testing.T, args ...string) {
	t.Helper()
	cmd := exec.Command(w.vars["SG"], append([]string{"install"}, args...)...)
	cmd.Dir = w.work
	cmd.Env = w.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("swarm-guard install %v: %v\n%s", args, err, out)
	}
}

// expandJSON replaces $NAME in a call with the JSON-escaped value.
func (w *world) expandJSON(s string) string {
	return os.Expand(s, func(name string) string {
		v, ok := w.vars[name]
		if !ok {
			return "$" + name
		}
		b, _ := json.Marshal(v)
		return string(b[1 : len(b)-1])
	})
}

func (w *world) expand(s string) string {
	return os.Expand(s, func(name string) string {
		if v, ok := w.vars[name]; ok {
			return v
		}
		return "$" + name
	})
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
		input = w.expandJSON(strings.TrimSpace(input))
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
	name := w.claudeBinPath
	if len(launcher) > 0 {
		args = append(append(append([]string{}, launcher[1:]...), "--", w.claudeBinPath), args...)
		name = launcher[0]
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = w.env(append([]string{
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

func playScenario(t *testing.T, claude, bin string, sc scenario) {
	w := newWorld(t, claude, bin)
	if _, skip := sc.option("no-install"); !skip {
		args, _ := sc.option("install")
		w.install(t, args...)
	}
	if sc.setup != "" {
		w.sh(t, w.work, sc.setup)
	}
	if _, ok := sc.option("remove-binary"); ok {
		must(t, os.Remove(w.vars["SG"]))
	}
	claudeArgs, ok := sc.option("args")
	if !ok {
		claudeArgs = []string{"--dangerously-skip-permissions"}
	}
	for i, a := range claudeArgs {
		claudeArgs[i] = w.expand(a)
	}
	var extraEnv []string
	for _, o := range sc.options {
		if o[0] == "env" {
			extraEnv = append(extraEnv, w.expand(strings.Join(o[1:], " ")))
		}
	}
	var launcher []string
	if l, ok := sc.option("launcher"); ok {
		if len(l) == 0 || l[0] != "run" {
			t.Fatalf("launcher: only \"run\" is known, got %v", l)
		}
		launcher = append([]string{w.vars["SG"]}, l...)
	}
	calls := w.parseCalls(t, sc.calls)
	res := w.runClient(t, w.work, calls, launcher, claudeArgs, extraEnv)
	results, arrived := res.server.Results()
	failed := false
	fail := func(format string, args ...any) {
		t.Helper()
		failed = true
		t.Errorf(format, args...)
	}
	wantExit := "0"
	for _, e := range sc.expect {
		e = w.expand(e)
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
	if sc.check != "" {
		cmd := exec.Command("bash", "-c", sc.check)
		cmd.Dir = w.work
		cmd.Env = w.env()
		if out, err := cmd.CombinedOutput(); err != nil {
			fail("check.sh failed (%v):\n%s", err, out)
		}
	}
	if failed || testing.Verbose() && os.Getenv("SWARM_GUARD_E2E_DEBUG") != "" {
		for i, r := range results {
			t.Logf("call %d %s: arrived=%v is_error=%v: %q", i+1, calls[i].Tool, arrived[i], r.IsError, r.Told())
		}
		if p := res.server.UnknownPaths(); len(p) > 0 {
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

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestScenariosParse checks every scenario file without the client, so
// that make test catches a broken scenario before make e2e runs it.
func TestScenariosParse(t *testing.T) {
	w := &world{vars: map[string]string{}}
	for _, name := range []string{"WORK", "OTHER", "REMOTE", "OUTSIDE", "SG", "HOME", "MCP_CONFIG", "SECRET", "SECRET_LINE", "SECRET_B64", "BARE_SECRET"} {
		w.vars[name] = "/x/" + strings.ToLower(name) + `"quoted"`
	}
	for _, sc := range loadScenarios(t) {
		calls := w.parseCalls(t, sc.calls)
		if len(calls) == 0 {
			t.Errorf("%s: no calls", sc.filePath)
		}
		if sc.doc == "" {
			t.Errorf("%s: no description above the first section", sc.filePath)
		}
	}
}
