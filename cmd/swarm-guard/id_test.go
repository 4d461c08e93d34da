package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentFirstIDCallsAgree starts `swarm-guard id` processes and
// in-process calls all at once against a fresh XDG_CONFIG_HOME: they must
// print one id, the one the file holds.
func TestConcurrentFirstIDCallsAgree(t *testing.T) {
	t.Parallel()
	for round := 0; round < 3; round++ {
		cfg := t.TempDir()
		dir := t.TempDir()
		env := map[string]string{"XDG_CONFIG_HOME": cfg, "HOME": dir}
		const procs, calls = 6, 6
		outs := make([]string, procs+calls)
		errs := make([]error, procs+calls)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := 0; i < procs; i++ {
			done.Add(1)
			go func() {
				defer done.Done()
				cmd := &exec.Cmd{Path: os.Args[0], Args: []string{"swarm-guard", "id"}, Dir: dir}
				cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+cfg, "HOME="+dir, "SWARM_GUARD_AGENT_ID=", "AGENT_ID=")
				start.Wait()
				out, err := cmd.Output()
				outs[i], errs[i] = string(out), err
			}()
		}
		for i := procs; i < procs+calls; i++ {
			done.Add(1)
			go func() {
				defer done.Done()
				var stdout, stderr bytes.Buffer
				c := &cli{stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return env[k] },
					workdir: func() (string, error) { return dir, nil }}
				start.Wait()
				if code := run([]string{"id"}, c); code != exitOK {
					errs[i] = &exitError{code: code, msg: stderr.String()}
				}
				outs[i] = stdout.String()
			}()
		}
		start.Done()
		done.Wait()
		data, err := os.ReadFile(filepath.Join(cfg, "swarm-guard", "agent-id"))
		if err != nil {
			t.Fatal(err)
		}
		for i := range outs {
			if errs[i] != nil || outs[i] != string(data) {
				t.Fatalf("round %d, caller %d: printed %q (%v); the id file holds %q", round, i, outs[i], errs[i], data)
			}
		}
		if !strings.HasSuffix(string(data), "\n") || strings.Count(string(data), "\n") != 1 {
			t.Fatalf("id file %q is not one line", data)
		}
	}
}
