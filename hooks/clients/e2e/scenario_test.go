package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
)

// The scenarios are testdata/*.txtar (e2eharness.Scenario), each played in
// every client. Sections:
//
//	options    one per line: clients NAME,... (only these) |
//	           remove-binary (delete the world's swarm-guard after install) |
//	           git-hooks-off (core.hooksPath to an empty directory, so that
//	           only the client's hook can stop a push) |
//	           env NAME=VALUE |
//	           alone (a run of its own, not shared with other scenarios)
//	setup.sh   bash, run in the agent's worktree after install
//	calls      one per line: shell {"command": ...} | write {"path": ..., "content": ...}
//	expect     one per line, optionally after [CLIENT] to hold for that
//	           client only or [!CLIENT] for every other one: N contains TEXT | N lacks TEXT | N reason TEXT
//	           (contains, and the characters before TEXT are reported) |
//	           N arrived | N missing (N counts calls from 1; TEXT is matched
//	           against the tool result the model read) |
//	           never TEXT (no request the stand-in served held TEXT: it
//	           never reached the model; only in a scenario run alone, since
//	           another's calls may hold it) | read TEXT (some request held
//	           it: the model read it, in the tool result or beside it;
//	           alone too)
//	check.sh   bash, run in the agent's worktree at the end; must exit 0
//
// Calls, expectations and scripts see $WORK (the agent's worktree, the
// cwd), $REMOTE (the bare remote), $OUTSIDE (a directory outside the
// worktree holding victim/file.txt), $SG (the swarm-guard the hooks run),
// $HOME, $SECRET, $SECRET_LINE and $SECRET_B64 (a fake credential made
// for this run, a line of code holding it, and that line base64-encoded),
// and $BARE_SECRET (a fake credential with no known prefix).
var knownOptions = []string{"clients", "remove-binary", "git-hooks-off", "env", "alone"}

func loadScenarios(t *testing.T) []e2eharness.Scenario {
	return e2eharness.LoadScenarios(t, "testdata", knownOptions...)
}

// runsIn tells whether sc is played in client c (option clients).
func runsIn(sc e2eharness.Scenario, c string) bool {
	only, ok := sc.Option("clients")
	if !ok {
		return true
	}
	return slices.Contains(strings.Split(strings.Join(only, ","), ","), c)
}

// parseCalls turns the scenario's abstract calls into c's tool calls.
func parseCalls(t *testing.T, w *world, c client, ls []string) []Call {
	t.Helper()
	var calls []Call
	for _, l := range ls {
		kind, input, _ := strings.Cut(l, " ")
		var args map[string]string
		if err := json.Unmarshal([]byte(w.ExpandJSON(input)), &args); err != nil {
			t.Fatalf("call %q: %v", l, err)
		}
		switch kind {
		case "shell":
			calls = append(calls, c.shell(args["command"]))
		case "write":
			calls = append(calls, c.write(args["path"], args["content"]))
		default:
			t.Fatalf("call %q: want shell or write", l)
		}
	}
	return calls
}

// installKnowsClients tells whether this swarm-guard's install takes
// --client. Without it (an older build), or with
// SWARM_GUARD_E2E_HAND_WRITTEN=1, the tests write each client's hooks by
// hand around the installed Claude Code launcher, which shows what the
// adapters add.
var installKnowsClients = sync.OnceValue(func() bool {
	out, _ := exec.Command(filepath.Join(os.Getenv(binEnv), "swarm-guard"), "install", "--help").CombinedOutput()
	return bytes.Contains(out, []byte("--client"))
})

// configure installs the hooks of mode for c in the world.
func configure(t *testing.T, w *world, c client, mode hookMode) {
	t.Helper()
	w.SwarmGuard(t, "install")
	switch mode {
	case hooksGuard:
		if installKnowsClients() && os.Getenv("SWARM_GUARD_E2E_HAND_WRITTEN") == "" {
			w.SwarmGuard(t, "install", "--client", c.installName)
			return
		}
		pre, post := installedLaunchers(t, w)
		c.hooks(t, w, pre, post)
	case hooksNoop:
		c.hooks(t, w, "true", "true")
	}
}

// installedLaunchers are the PreToolUse and PostToolUse commands swarm-guard
// install wrote for Claude Code.
func installedLaunchers(t *testing.T, w *world) (pre, post string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(w.Work, ".claude", "settings.json"))
	must(t, err)
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	must(t, json.Unmarshal(data, &doc))
	get := func(ev string) string {
		if len(doc.Hooks[ev]) == 0 || len(doc.Hooks[ev][0].Hooks) == 0 {
			t.Fatalf(".claude/settings.json has no %s hook:\n%s", ev, data)
		}
		return doc.Hooks[ev][0].Hooks[0].Command
	}
	return get("PreToolUse"), get("PostToolUse")
}

// runTimeout bounds one client run. A run takes 5 to 15 s on an idle
// 2-core machine; a loaded one (load average 30) took up to 100 s.
const runTimeout = 240 * time.Second

// runOutcome is what one client run left behind.
type runOutcome struct {
	exitCode int
	output   string
	server   *Server
	elapsed  time.Duration
	started  time.Time
}

// runClient starts c headless in the world's worktree against a stand-in
// playing calls and waits for it. setup runs after the stand-in is up
// (the client's configuration names its port) and before the client.
func runClient(t *testing.T, w *world, c client, calls []Call, mode hookMode, extraEnv []string, setup func(standin string)) runOutcome {
	t.Helper()
	srv, err := NewServer(calls)
	must(t, err)
	t.Cleanup(func() { srv.Close() })
	c.setup(t, w, srv.URL())
	if setup != nil {
		setup(srv.URL())
	}
	args, cenv := c.command(w, srv.URL(), prompt, mode)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	name := w.clientPath
	if wrap := strings.Fields(os.Getenv("SWARM_GUARD_E2E_WRAP")); len(wrap) > 0 {
		// e.g. "strace -f -tt -e trace=network -o FILE": what a client
		// does that the stand-in does not see.
		name, args = wrap[0], append(append(wrap[1:], w.clientPath), args...)
	}
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = w.Work
	proxy := srv.URL()
	env := w.Environ(append([]string{
		// Everything a client routes through a proxy comes to the
		// stand-in, which refuses and counts it.
		"HTTPS_PROXY=" + proxy, "HTTP_PROXY=" + proxy, "https_proxy=" + proxy, "http_proxy=" + proxy,
		"ALL_PROXY=" + proxy, "NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"NO_UPDATE_NOTIFIER=1", "DO_NOT_TRACK=1", "CI=1",
	}, cenv...)...)
	// The fake credentials stay out of the client's environment: a
	// variable holding one is itself a credential to swarm-guard, which
	// would then find it for that reason, not for what a scenario tests.
	env = slices.DeleteFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "SECRET") || strings.HasPrefix(kv, "BARE_SECRET=")
	})
	cmd.Env = append(env, extraEnv...)
	stdin, _ := os.Open(os.DevNull)
	defer stdin.Close()
	cmd.Stdin = stdin
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// The client's children (a relaunched node process, hooks, shells)
	// die with it on a timeout: it leads a process group of its own.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err = cmd.Run()
	elapsed := time.Since(start)
	// Whatever the client left running (a watcher, a background shell)
	// goes with the run.
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	code := 0
	if err != nil {
		code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if ctx.Err() != nil {
			t.Fatalf("%s did not finish within %s (requests: %v):\n%s", c.name, runTimeout, srv.Requests(), tail(out.String(), 3000))
		}
	}
	return runOutcome{exitCode: code, output: out.String(), server: srv, elapsed: elapsed, started: start}
}

// TestClients plays the scenarios in every client make e2e-clients
// installed. A client's start-up is most of a run's time (5 to 60 s), so
// the scenarios that need nothing of their own (no remove-binary, no env)
// share one run per client, one after the other in the same conversation,
// each with its own expectations and check; the others run alone.
func TestClients(t *testing.T) {
	if os.Getenv(binEnv) == "" {
		t.Skipf("real-client test: run it with make e2e-clients (needs %s)", binEnv)
	}
	scenarios := loadScenarios(t)
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			path, why := clientPath(c)
			if path == "" {
				t.Skip(why)
			}
			var shared []e2eharness.Scenario
			for _, sc := range scenarios {
				if !runsIn(sc, c.name) {
					continue
				}
				if alone(sc) {
					t.Run(sc.Name, func(t *testing.T) {
						if !c.serial {
							t.Parallel()
						}
						playScenarios(t, c, path, []e2eharness.Scenario{sc})
					})
					continue
				}
				shared = append(shared, sc)
			}
			if len(shared) > 0 {
				t.Run("shared", func(t *testing.T) {
					if !c.serial {
						t.Parallel()
					}
					playScenarios(t, c, path, shared)
				})
			}
		})
	}
}

// forClient strips an expectation's [CLIENT] or [!CLIENT] prefixes (all
// must hold) and tells whether it applies to client.
func forClient(e, client string) (string, bool) {
	applies := true
	for strings.HasPrefix(e, "[") {
		only, rest, _ := strings.Cut(e[1:], "]")
		not := strings.HasPrefix(only, "!")
		applies = applies && (strings.TrimPrefix(only, "!") == client) != not
		e = strings.TrimSpace(rest)
	}
	return e, applies
}

// alone tells a scenario that needs a run of its own.
func alone(sc e2eharness.Scenario) bool {
	_, remove := sc.Option("remove-binary")
	_, env := sc.Option("env")
	_, alone := sc.Option("alone")
	return remove || env || alone
}

// playScenarios plays scs in one run of c: their setups in order, their
// calls one after the other, then each one's expectations and check.
func playScenarios(t *testing.T, c client, path string, scs []e2eharness.Scenario) {
	w := newWorld(t, path)
	configure(t, w, c, hooksGuard)
	var calls []Call
	var extraEnv []string
	first := make([]int, len(scs)) // index of each scenario's first call
	for i, sc := range scs {
		if _, ok := sc.Option("git-hooks-off"); ok {
			w.Sh(t, w.Work, `mkdir -p "$HOME/no-git-hooks" && git config core.hooksPath "$HOME/no-git-hooks"`)
		}
		if sc.Setup != "" {
			w.Sh(t, w.Work, sc.Setup)
		}
		for _, e := range sc.OptionValues("env") {
			extraEnv = append(extraEnv, w.Expand(e))
		}
		first[i] = len(calls)
		calls = append(calls, parseCalls(t, w, c, sc.Calls)...)
	}
	for _, sc := range scs {
		if _, ok := sc.Option("remove-binary"); ok {
			must(t, os.Remove(w.Vars["SG"]))
		}
	}
	res := runClient(t, w, c, calls, hooksGuard, extraEnv, nil)
	results, arrived := res.server.Results()
	failed := false
	for i, sc := range scs {
		fail := func(format string, args ...any) {
			t.Helper()
			failed = true
			t.Errorf("%s: "+format, append([]any{sc.Name}, args...)...)
		}
		for _, e := range sc.Expect {
			e = w.Expand(e)
			e, applies := forClient(e, c.name)
			if !applies {
				continue
			}
			f := strings.Fields(e)
			if len(f) < 2 {
				t.Fatalf("%s: bad expect line %q", sc.Name, e)
			}
			if f[0] == "never" || f[0] == "read" {
				if len(scs) > 1 {
					t.Fatalf("%s: %q needs the scenario alone in its run (option alone)", sc.Name, e)
				}
				text := strings.TrimSpace(strings.TrimPrefix(e, f[0]))
				if saw := res.server.Saw(text); saw != (f[0] == "read") {
					fail("%s: a request to the model held it: %v", e, saw)
				}
				continue
			}
			n, err := strconv.Atoi(f[0])
			if err != nil || n < 1 || n > len(sc.Calls) {
				t.Fatalf("%s: bad expect line %q", sc.Name, e)
			}
			text := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(e, f[0]), " "+f[1]))
			r, ok := results[first[i]+n-1], arrived[first[i]+n-1]
			switch f[1] {
			case "missing":
				if ok {
					fail("%s: call %d got a result: %q", e, n, r.Text)
				}
			case "arrived":
				if !ok {
					fail("%s: call %d never got a result", e, n)
				}
			case "contains", "reason":
				switch i := strings.Index(r.Text, text); {
				case !ok:
					fail("%s: call %d never got a result", e, n)
				case i < 0:
					fail("%s: what the model read after call %d does not contain %q: %q", e, n, text, r.Text)
				case f[1] == "reason":
					noteReason(c.name, sc.Name, i, r.Text)
				}
			case "lacks":
				if !ok {
					fail("%s: call %d never got a result", e, n)
				} else if strings.Contains(r.Text, text) {
					fail("%s: what the model read after call %d contains %q: %q", e, n, text, r.Text)
				}
			default:
				t.Fatalf("%s: bad expect line %q", sc.Name, e)
			}
		}
		if sc.Check != "" {
			cmd := exec.Command("bash", "-c", sc.Check)
			cmd.Dir = w.Work
			cmd.Env = w.Environ()
			if out, err := cmd.CombinedOutput(); err != nil {
				fail("check.sh failed (%v):\n%s", err, out)
			}
		}
	}
	if msg := checkRefused(c, res.server); msg != "" {
		failed = true
		t.Error(msg)
	}
	noteRun(c.name, res)
	if failed || os.Getenv("SWARM_GUARD_E2E_DEBUG") != "" {
		for i, r := range results {
			t.Logf("call %d %s %v: arrived=%v: %q", i+1, calls[i].Tool, calls[i].Args, arrived[i], r.Text)
		}
		t.Logf("started %s; requests: %v", res.started.Format("15:04:05.000"), res.server.Requests())
		if u := res.server.Unknown(); len(u) > 0 {
			t.Logf("requests the stand-in did not know: %v", u)
		}
		if l := w.hookLog(); l != "" {
			// The whole log beside the others; the test log gets its tail.
			dir := os.Getenv("SWARM_GUARD_E2E_HOOKLOG")
			name := filepath.Join(dir, strings.ReplaceAll(t.Name(), "/", "-")+".log")
			if err := os.WriteFile(name, []byte(l), 0o644); err == nil {
				t.Logf("hook calls: %s", name)
			} else {
				t.Logf("hook calls:\n%s", tail(l, 6000))
			}
		}
		t.Logf("%s exit %d after %s, output tail:\n%s", c.name, res.exitCode, res.elapsed.Round(time.Millisecond), tail(res.output, 3000))
	}
}

// checkRefused fails a run whose client tried an outside host it is not
// known to try: every attempt is refused, and a new one means the client
// changed what it sends out.
func checkRefused(c client, s *Server) string {
	var unexpected []string
	for host, n := range s.Refused() {
		if !slices.Contains(c.telemetry, host) {
			unexpected = append(unexpected, fmt.Sprintf("%s x%d", host, n))
		}
	}
	if len(unexpected) == 0 {
		return ""
	}
	slices.Sort(unexpected)
	return fmt.Sprintf("%s tried to leave 127.0.0.1 (refused by the stand-in's proxy): %s; add the host to the client's telemetry list only if it is not the model API",
		c.name, strings.Join(unexpected, ", "))
}

// The summary make e2e-clients prints at the end: per client, what the
// model read before swarm-guard's reason, and the refused outside hosts.
var (
	summaryMu sync.Mutex
	reasons   = map[string][]string{}       // client → "scenario: N chars before"
	refused   = map[string]map[string]int{} // client → host → count
	runs      = map[string]int{}
)

// noteReason records what the model read before swarm-guard's message:
// up to the last "swarm-guard" before the rule named at index at.
func noteReason(client, scenario string, at int, text string) {
	summaryMu.Lock()
	defer summaryMu.Unlock()
	before := at
	if j := strings.LastIndex(text[:at], "swarm-guard"); j >= 0 {
		before = j
	}
	prefix := text[:before]
	reasons[client] = append(reasons[client], fmt.Sprintf("%s: %d chars before the reason (%q)", scenario, before, prefix))
}

func noteRun(client string, res runOutcome) {
	summaryMu.Lock()
	defer summaryMu.Unlock()
	runs[client]++
	if refused[client] == nil {
		refused[client] = map[string]int{}
	}
	for h, n := range res.server.Refused() {
		refused[client][h] += n
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	summaryMu.Lock()
	names := make([]string, 0, len(runs))
	for n := range runs {
		names = append(names, n)
	}
	for n := range timings {
		if runs[n] == 0 {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		var hosts []string
		for h, k := range refused[n] {
			hosts = append(hosts, fmt.Sprintf("%s x%d", h, k))
		}
		slices.Sort(hosts)
		if len(hosts) == 0 {
			hosts = []string{"none"}
		}
		fmt.Printf("summary %s: %d runs; outside requests refused: %s\n", n, runs[n], strings.Join(hosts, ", "))
		for _, r := range reasons[n] {
			fmt.Printf("summary %s: %s\n", n, r)
		}
		if tm, ok := timings[n]; ok {
			fmt.Printf("summary %s: %s\n", n, tm)
		}
	}
	summaryMu.Unlock()
	os.Exit(code)
}

// TestScenariosParse checks every scenario file in every client's tool
// naming without the clients, so that make test catches a broken scenario
// before make e2e-clients runs it.
func TestScenariosParse(t *testing.T) {
	w := &world{World: &e2eharness.World{Vars: e2eharness.StubVars("WORK", "REMOTE", "OUTSIDE", "SG", "HOME", "SECRET", "SECRET_LINE", "SECRET_B64", "BARE_SECRET")}}
	for _, sc := range loadScenarios(t) {
		if sc.Doc == "" {
			t.Errorf("%s: no description above the first section", sc.File)
		}
		for _, c := range clients {
			if runsIn(sc, c.name) && len(parseCalls(t, w, c, sc.Calls)) == 0 {
				t.Errorf("%s: no calls", sc.File)
			}
		}
		for _, e := range sc.Expect {
			if body, _ := forClient(e, ""); (strings.HasPrefix(body, "never ") || strings.HasPrefix(body, "read ")) && !alone(sc) {
				t.Errorf("%s: expect %q needs option alone", sc.File, e)
			}
			for rest := e; strings.HasPrefix(rest, "["); {
				var name string
				name, rest, _ = strings.Cut(rest[1:], "]")
				rest = strings.TrimSpace(rest)
				name = strings.TrimPrefix(name, "!")
				if !slices.ContainsFunc(clients, func(c client) bool { return c.name == name }) {
					t.Errorf("%s: expect %q names no client", sc.File, e)
				}
			}
		}
	}
}
