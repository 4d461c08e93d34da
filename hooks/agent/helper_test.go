package agent

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as the agents the tests supervise: with
// AGENT_TEST_HELPER set it plays the scenario named there instead of
// running tests.
func TestMain(m *testing.M) {
	if mode := os.Getenv("AGENT_TEST_HELPER"); mode != "" {
		helper(strings.Fields(mode))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// helperCommand is a Command running the helper with steps separated by
// semicolons, e.g. "lines 3; spawn /tmp/pid; hang".
func helperCommand(steps string) Command {
	// Under -race a process sleeps a second before it exits, unless told not to.
	return Command{Path: os.Args[0], Args: []string{"-test.run=^$"}, Env: append(os.Environ(), "AGENT_TEST_HELPER="+steps, "GORACE=atexit_sleep_ms=0")}
}

func helper(words []string) {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	steps := [][]string{}
	cur := []string{}
	for _, w := range words {
		if w == ";" {
			steps = append(steps, cur)
			cur = []string{}
			continue
		}
		cur = append(cur, w)
	}
	steps = append(steps, cur)
	for _, s := range steps {
		if len(s) == 0 {
			continue
		}
		switch s[0] {
		case "lines":
			n, _ := strconv.Atoi(s[1])
			for i := 1; i <= n; i++ {
				fmt.Fprintf(out, "line %d\n", i)
				out.Flush()
			}
		case "partial":
			fmt.Fprint(out, "no newline")
		case "long":
			n, _ := strconv.Atoi(s[1])
			out.WriteString(strings.Repeat("x", n) + "\n")
		case "err":
			fmt.Fprintln(os.Stderr, strings.Join(s[1:], " "))
		case "ignore":
			signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
		case "spawn": // spawn PIDFILE [stubborn]
			mode := "sleep " + s[1]
			if len(s) > 2 {
				mode += " stubborn"
			}
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "AGENT_TEST_HELPER="+mode)
			cmd.Stdout = os.Stdout
			if err := cmd.Start(); err != nil {
				panic(err)
			}
			// The pid first, so a test can check the grandchild is gone even
			// if a stop kills it while it starts; then wait until it is ready.
			writeAtomically(s[1], strconv.Itoa(cmd.Process.Pid))
			for range 1000 {
				if _, err := os.Stat(s[1] + ".ready"); err == nil {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
		case "sleep": // the grandchild: sleep PIDFILE [stubborn]
			if len(s) > 2 {
				signal.Ignore(syscall.SIGINT, syscall.SIGTERM)
			}
			writeAtomically(s[1]+".ready", "")
			time.Sleep(time.Minute)
		case "wait":
			d, _ := time.ParseDuration(s[1])
			time.Sleep(d)
		case "hang":
			time.Sleep(time.Minute)
		case "exit":
			n, _ := strconv.Atoi(s[1])
			out.Flush()
			os.Exit(n)
		}
	}
}

func writeAtomically(path, content string) {
	os.WriteFile(path+".tmp", []byte(content), 0o644)
	os.Rename(path+".tmp", path)
}

// pidFrom reads a pid file written by a helper.
func pidFrom(t testing.TB, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// requireGone fails unless pid is gone or a zombie (dead, not collected).
// The real-time limit only keeps a survivor from hanging the test; it is
// generous because a machine at a load of 40 may take seconds to reap.
func requireGone(t testing.TB, pid int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		alive := false
		if err != nil {
			alive = syscall.Kill(pid, 0) == nil && !procExists()
		} else if i := strings.LastIndexByte(string(data), ')'); i >= 0 && i+2 < len(data) {
			alive = data[i+2] != 'Z'
		}
		if !alive {
			return
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("process %d survived", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func procExists() bool {
	_, err := os.Stat("/proc/self")
	return err == nil
}
