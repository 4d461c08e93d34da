package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The test programs of the run, budget and report scripts:
//
//	fake-claude  plays Claude Code's headless CLI from a scenario file
//	pid-gone     checks that the processes whose pids are in files are gone
//	wait-file    waits until a file exists (a background agent got going)
func init() {
	scriptCommands["fake-claude"] = fakeClaudeMain
	scriptCommands["pid-gone"] = pidGoneMain
	scriptCommands["wait-file"] = waitFileMain
}

// waitFileMain waits up to ten seconds for each file to exist.
func waitFileMain() {
	for _, file := range os.Args[1:] {
		deadline := time.Now().Add(10 * time.Second)
		for {
			if _, err := os.Stat(file); err == nil {
				break
			}
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "wait-file: %s did not appear\n", file)
				os.Exit(1)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// fakeClaudeMain accepts claude's flags like the real CLI (including its
// refusal of stream-json without --verbose) and then plays the scenario in
// $FAKE_CLAUDE_SCENARIO, one step per line:
//
//	attempt N                 the following steps are for the N-th invocation (counted in <scenario>.count)
//	init                      system/init
//	turn ID IN OUT [CW CR] [tool=Name:arg]... [text=word] [sub]
//	                          one assistant message: a line per content block sharing the id and the
//	                          usage (output_tokens is a placeholder 1 on all but the last line), then
//	                          a tool_result user line per tool; sub marks a subagent message
//	result SUBTYPE [is_error] [cost=X] [usage]
//	                          the result; modelUsage sums every turn (only usage with "usage")
//	text LINE...              a line that is not JSON
//	bigresult N               a user line with an N-byte tool result
//	sleep D                   pause
//	hang                      sleep for a minute without output
//	exit N                    exit with status N
//	crash                     die by SIGKILL
//	ignore SIGNAL...          ignore INT, TERM
//	spawn PIDFILE [stubborn]  start a grandchild that writes its pid and sleeps for a minute holding
//	                          stdout; stubborn ignores SIGINT and SIGTERM
//	env NAME...               print NAME=value (or NAME unset) to stderr
//	args                      print the arguments to stderr
//	run PROGRAM ARG...        run a program (e.g. sh script.sh to commit) and wait for it
//
// Like the real client, it runs the PreToolUse hooks of the --settings
// files it is given before each tool result (a denial becomes the result),
// unless --bare is given or FAKE_CLAUDE_IGNORE_HOOKS=1 makes it a client
// that skips hooks.
//
// $VARIABLES in steps are expanded ($WORK in particular).
// The end of the scenario exits 0.
func fakeClaudeMain() {
	args := os.Args[1:]
	if len(args) >= 2 && args[0] == "--sleeper" {
		sleeper(args[1], len(args) > 2 && args[2] == "stubborn")
		return
	}
	format, verbose := "text", false
	for i, a := range args {
		switch {
		case a == "--output-format" && i+1 < len(args):
			format = args[i+1]
		case strings.HasPrefix(a, "--output-format="):
			format = strings.TrimPrefix(a, "--output-format=")
		case a == "--verbose":
			verbose = true
		}
	}
	if format == "stream-json" && !verbose {
		fmt.Fprintln(os.Stderr, "Error: When using --print, --output-format=stream-json requires --verbose")
		os.Exit(1)
	}
	path := os.Getenv("FAKE_CLAUDE_SCENARIO")
	if path == "" {
		fmt.Fprintln(os.Stderr, "fake-claude: FAKE_CLAUDE_SCENARIO is not set")
		os.Exit(1)
	}
	steps, err := scenarioSteps(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake-claude:", err)
		os.Exit(1)
	}
	p := &fakePlayer{out: bufio.NewWriter(os.Stdout), session: "fake-session-" + strconv.Itoa(os.Getpid()), args: args}
	if os.Getenv("FAKE_CLAUDE_IGNORE_HOOKS") == "" && !slices.Contains(args, "--bare") {
		p.hooks = settingsHooks(args)
	}
	if s := os.Getenv("FAKE_CLAUDE_SESSION"); s != "" {
		p.session = s
	}
	for _, step := range steps {
		p.step(step)
	}
	p.out.Flush()
}

// scenarioSteps returns the steps of this invocation.
func scenarioSteps(path string) ([][]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	count := 1
	if old, err := os.ReadFile(path + ".count"); err == nil {
		n, _ := strconv.Atoi(strings.TrimSpace(string(old)))
		count = n + 1
	}
	if err := os.WriteFile(path+".count", []byte(strconv.Itoa(count)), 0o644); err != nil {
		return nil, err
	}
	sections := map[int][][]string{}
	cur, last := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(os.ExpandEnv(line))
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if f[0] == "attempt" && len(f) == 2 {
			cur, _ = strconv.Atoi(f[1])
			last = max(last, cur)
			continue
		}
		sections[cur] = append(sections[cur], f)
	}
	if last == 0 {
		return sections[0], nil
	}
	return sections[min(count, last)], nil
}

type fakePlayer struct {
	out     *bufio.Writer
	session string
	args    []string
	hooks   []string // PreToolUse hook commands from --settings
	turns   int
	usage   [4]int64 // input, output, cache creation, cache read
}

// emit writes one stream-json line with "type" first, as claude does.
func (p *fakePlayer) emit(v map[string]any) {
	typ := v["type"]
	delete(v, "type")
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	fmt.Fprintf(p.out, `{"type":%q,`, typ)
	p.out.Write(b[1:])
	p.out.WriteByte('\n')
	p.out.Flush()
}

func (p *fakePlayer) step(f []string) {
	switch f[0] {
	case "init":
		p.emit(map[string]any{"type": "system", "subtype": "init", "session_id": p.session, "cwd": mustWd(),
			"model": "claude-fake-5", "tools": []string{"Bash", "Read", "Edit"}, "claude_code_version": "2.1.240", "permissionMode": "default"})
	case "turn":
		p.turn(f[1:])
	case "result":
		p.result(f[1:])
	case "text":
		fmt.Fprintln(p.out, strings.Join(f[1:], " "))
		p.out.Flush()
	case "bigresult":
		n, _ := strconv.Atoi(f[1])
		p.emit(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_big", "content": strings.Repeat("x", n)}}},
			"parent_tool_use_id": nil, "session_id": p.session})
	case "sleep":
		d, _ := time.ParseDuration(f[1])
		time.Sleep(d)
	case "hang":
		time.Sleep(time.Minute)
	case "exit":
		n, _ := strconv.Atoi(f[1])
		p.out.Flush()
		os.Exit(n)
	case "crash":
		p.out.Flush()
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Second)
	case "ignore":
		for _, s := range f[1:] {
			switch s {
			case "INT":
				signal.Ignore(syscall.SIGINT)
			case "TERM":
				signal.Ignore(syscall.SIGTERM)
			}
		}
	case "spawn":
		spawnSleeper(f[1], len(f) > 2 && f[2] == "stubborn")
	case "env":
		for _, name := range f[1:] {
			if v, ok := os.LookupEnv(name); ok {
				fmt.Fprintf(os.Stderr, "env %s=%s\n", name, v)
			} else {
				fmt.Fprintf(os.Stderr, "env %s unset\n", name)
			}
		}
	case "args":
		fmt.Fprintf(os.Stderr, "args: %s\n", strings.Join(p.args, " "))
	case "run":
		cmd := exec.Command(f[1], f[2:]...)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "fake-claude:", err)
			os.Exit(1)
		}
	default:
		fmt.Fprintf(os.Stderr, "fake-claude: unknown step %q\n", f[0])
		os.Exit(1)
	}
}

func (p *fakePlayer) turn(f []string) {
	id := f[0]
	nums := []int64{}
	var tools [][2]string
	text, sub := "", false
	for _, a := range f[1:] {
		switch {
		case strings.HasPrefix(a, "tool="):
			name, arg, _ := strings.Cut(strings.TrimPrefix(a, "tool="), ":")
			tools = append(tools, [2]string{name, arg})
		case strings.HasPrefix(a, "text="):
			text = strings.TrimPrefix(a, "text=")
		case a == "sub":
			sub = true
		default:
			n, _ := strconv.ParseInt(a, 10, 64)
			nums = append(nums, n)
		}
	}
	for len(nums) < 4 {
		nums = append(nums, 0)
	}
	in, out, cw, cr := nums[0], nums[1], nums[2], nums[3]
	p.usage[0] += in
	p.usage[1] += out
	p.usage[2] += cw
	p.usage[3] += cr
	if !sub {
		p.turns++
	}
	var blocks []map[string]any
	if text != "" {
		blocks = append(blocks, map[string]any{"type": "text", "text": strings.ReplaceAll(text, "_", " ")})
	}
	for i, t := range tools {
		blocks = append(blocks, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%s_%d", id, i), "name": t[0], "input": toolInput(t[0], t[1])})
	}
	if len(blocks) == 0 {
		blocks = append(blocks, map[string]any{"type": "text", "text": "thinking about it"})
	}
	var parent any
	if sub {
		parent = "toolu_parent"
	}
	for i, b := range blocks {
		outTokens := int64(1) // the placeholder claude writes before the message is complete
		if i == len(blocks)-1 {
			outTokens = out
		}
		p.emit(map[string]any{"type": "assistant", "parent_tool_use_id": parent, "session_id": p.session,
			"message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": "claude-fake-5",
				"content": []any{b}, "stop_reason": nil,
				"usage": map[string]any{"input_tokens": in, "output_tokens": outTokens, "cache_creation_input_tokens": cw,
					"cache_read_input_tokens": cr, "service_tier": "standard"}}})
	}
	for i, t := range tools {
		content := p.runHooks(t[0], toolInput(t[0], t[1]))
		p.emit(map[string]any{"type": "user", "parent_tool_use_id": parent, "session_id": p.session,
			"message": map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result",
				"tool_use_id": fmt.Sprintf("toolu_%s_%d", id, i), "content": content}}}})
	}
}

func toolInput(name, arg string) map[string]any {
	switch name {
	case "Bash":
		return map[string]any{"command": strings.ReplaceAll(arg, "_", " ")}
	case "Read", "Edit", "Write":
		return map[string]any{"file_path": arg}
	}
	return map[string]any{"query": arg}
}

func (p *fakePlayer) result(f []string) {
	subtype, isError, usageOnly := f[0], false, false
	cost := -1.0
	for _, a := range f[1:] {
		switch {
		case a == "is_error":
			isError = true
		case a == "usage":
			usageOnly = true
		case strings.HasPrefix(a, "cost="):
			cost, _ = strconv.ParseFloat(strings.TrimPrefix(a, "cost="), 64)
		}
	}
	if subtype != "success" {
		isError = true
	}
	r := map[string]any{"type": "result", "subtype": subtype, "is_error": isError, "duration_ms": 1234, "duration_api_ms": 1000,
		"num_turns": p.turns, "session_id": p.session, "stop_reason": "end_turn",
		"usage": map[string]any{"input_tokens": p.usage[0], "output_tokens": p.usage[1],
			"cache_creation_input_tokens": p.usage[2], "cache_read_input_tokens": p.usage[3]},
		"permission_denials": []any{}, "uuid": "result-uuid"}
	if !usageOnly {
		r["modelUsage"] = map[string]any{"claude-fake-5": map[string]any{"inputTokens": p.usage[0], "outputTokens": p.usage[1],
			"cacheCreationInputTokens": p.usage[2], "cacheReadInputTokens": p.usage[3], "costUSD": max(cost, 0)}}
	}
	if cost >= 0 {
		r["total_cost_usd"] = cost
	}
	switch subtype {
	case "success":
		r["result"] = "All done."
		if isError {
			r["result"] = "API Error: 529 overloaded"
		}
	case "error_max_turns":
		r["errors"] = []string{fmt.Sprintf("Reached maximum number of turns (%d)", p.turns)}
		r["terminal_reason"] = "max_turns"
	default:
		r["errors"] = []string{"something went wrong"}
	}
	p.emit(r)
}

func mustWd() string {
	wd, _ := os.Getwd()
	return wd
}

// spawnSleeper starts a grandchild in the agent's process group that holds
// its stdout. Its pid is written as soon as it exists, so a test can check
// it is gone even if a stop kills it during its start; then the spawn
// waits (a while) until the grandchild is ready, with its signals ignored
// when stubborn.
func spawnSleeper(pidfile string, stubborn bool) {
	exe, err := os.Executable()
	if err != nil {
		panic(err)
	}
	args := []string{"--sleeper", pidfile}
	if stubborn {
		args = append(args, "stubborn")
	}
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = "fake-claude" // testscript picks the program by argv[0]
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		panic(err)
	}
	writeAtomically(pidfile, strconv.Itoa(cmd.Process.Pid))
	for range 1000 {
		if _, err := os.Stat(pidfile + ".ready"); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	panic("the sleeper did not get ready")
}

func sleeper(pidfile string, stubborn bool) {
	if stubborn {
		signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
	}
	writeAtomically(pidfile+".ready", "")
	time.Sleep(time.Minute)
}

func writeAtomically(path, content string) {
	os.WriteFile(path+".tmp", []byte(content), 0o644)
	os.Rename(path+".tmp", path)
}

// pidGoneMain checks that every process whose pid is in one of the files
// is gone (or a zombie, which is dead but not yet collected), waiting up to
// ten seconds so that a loaded machine does not fail the test.
func pidGoneMain() {
	for _, file := range os.Args[1:] {
		data, err := os.ReadFile(file)
		if err != nil {
			fmt.Fprintln(os.Stderr, "pid-gone:", err)
			os.Exit(1)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil {
			fmt.Fprintln(os.Stderr, "pid-gone:", err)
			os.Exit(1)
		}
		deadline := time.Now().Add(10 * time.Second)
		for processAlive(pid) {
			if time.Now().After(deadline) {
				fmt.Fprintf(os.Stderr, "pid-gone: process %d from %s is still running\n", pid, filepath.Base(file))
				os.Exit(1)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// processAlive reports whether pid is a running (not zombie) process.
func processAlive(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return syscall.Kill(pid, 0) == nil // no /proc: only kill can tell
	}
	// The state follows the command name in parentheses.
	s := string(data)
	if i := strings.LastIndexByte(s, ')'); i >= 0 && i+2 < len(s) {
		return s[i+2] != 'Z'
	}
	return true
}

// settingsHooks reads the PreToolUse hook commands of the --settings files.
func settingsHooks(args []string) []string {
	var out []string
	for i, a := range args {
		file := ""
		switch {
		case a == "--settings" && i+1 < len(args):
			file = args[i+1]
		case strings.HasPrefix(a, "--settings="):
			file = strings.TrimPrefix(a, "--settings=")
		default:
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		var s struct {
			Hooks map[string][]struct {
				Hooks []struct {
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"hooks"`
		}
		if json.Unmarshal(data, &s) != nil {
			continue
		}
		for _, m := range s.Hooks["PreToolUse"] {
			for _, h := range m.Hooks {
				out = append(out, h.Command)
			}
		}
	}
	return out
}

// runHooks runs the PreToolUse hooks for one tool call, as the client
// does, and returns the tool result: "ok", or the hook's denial.
func (p *fakePlayer) runHooks(tool string, input map[string]any) string {
	wd, _ := os.Getwd()
	for _, h := range p.hooks {
		payload, _ := json.Marshal(map[string]any{"session_id": p.session, "cwd": wd, "hook_event_name": "PreToolUse",
			"tool_name": tool, "tool_input": input, "tool_use_id": "toolu_fake"})
		cmd := exec.Command("/bin/sh", "-c", h)
		cmd.Stdin = bytes.NewReader(payload)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 2 {
				return "PreToolUse:" + tool + " hook error: " + stderr.String()
			}
		}
	}
	return "ok"
}
