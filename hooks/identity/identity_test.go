package identity

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
)

var patternRE = regexp.MustCompile(Pattern)

var validCases = map[string]bool{
	"a": true, "A": true, "0": true, "host-3fa9": true, "main.feature.auth": true,
	"agent@example.com": true, "team/agent+1": true, "a_b": true, strings.Repeat("a", 128): true,
	"": false, strings.Repeat("a", 129): false, "-a": false, ".a": false, "/a": false, "_a": false,
	"a b": false, "a\n": false, "a:b": false, "ü": false, "a\x00": false, "a,b": false, "a#b": false,
}

func TestValidMatchesPattern(t *testing.T) {
	for id, want := range validCases {
		if got := Valid(id); got != want {
			t.Errorf("Valid(%q) = %v, want %v", id, got, want)
		}
		if got := patternRE.MatchString(id); got != want {
			t.Errorf("Pattern on %q = %v, want %v", id, got, want)
		}
	}
}

func FuzzValid(f *testing.F) {
	for id := range validCases {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		if Valid(id) != patternRE.MatchString(id) {
			t.Fatalf("Valid(%q) = %v disagrees with %s", id, Valid(id), Pattern)
		}
	})
}

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestResolveOrder(t *testing.T) {
	cfg := t.TempDir()
	host := func() (string, error) { return "Build-Box.example.com", nil }
	rnd := func() *bytes.Reader { return bytes.NewReader([]byte{0x3f, 0xa9}) }
	tests := map[string]struct {
		o       Options
		want    Identity
		wantErr string
	}{
		"SWARM_GUARD_AGENT_ID first": {
			o:    Options{Getenv: env("SWARM_GUARD_AGENT_ID", "sg-1", "AGENT_ID", "common", "XDG_CONFIG_HOME", cfg), UseBranch: true, Branch: "main.x"},
			want: Identity{ID: "sg-1", Source: EnvAgentID},
		},
		"AGENT_ID second": {
			o:    Options{Getenv: env("AGENT_ID", "common", "XDG_CONFIG_HOME", cfg), UseBranch: true, Branch: "main.x"},
			want: Identity{ID: "common", Source: EnvCommonAgentID},
		},
		"branch when the policy says so": {
			o:    Options{Getenv: env("XDG_CONFIG_HOME", cfg), UseBranch: true, Branch: "main.feature.auth"},
			want: Identity{ID: "main.feature.auth", Source: SourceBranch},
		},
		"branch ignored by default": {
			o:    Options{Getenv: env("XDG_CONFIG_HOME", cfg), Branch: "main.x", Hostname: host, Rand: rnd()},
			want: Identity{ID: "build-box-3fa9", Source: SourceFile, File: filepath.Join(cfg, "swarm-guard", "agent-id")},
		},
		"detached HEAD falls back to the file": {
			o:    Options{Getenv: env("XDG_CONFIG_HOME", cfg), UseBranch: true, Hostname: host, Rand: rnd()},
			want: Identity{ID: "build-box-3fa9", Source: SourceFile, File: filepath.Join(cfg, "swarm-guard", "agent-id")},
		},
		"malformed env is an error, not skipped": {
			o:       Options{Getenv: env("SWARM_GUARD_AGENT_ID", "two words", "AGENT_ID", "ok")},
			wantErr: `SWARM_GUARD_AGENT_ID="two words" is not a well-formed agent id`,
		},
		"malformed branch": {
			o:       Options{Getenv: env("XDG_CONFIG_HOME", cfg), UseBranch: true, Branch: "-x"},
			wantErr: `branch "-x" cannot be the agent id`,
		},
		"no home": {
			o:       Options{Getenv: env()},
			wantErr: "neither XDG_CONFIG_HOME nor HOME is set",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := Resolve(tt.o)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestFilePathDefaultsToHome(t *testing.T) {
	got, err := FilePath(env("HOME", "/h", "XDG_CONFIG_HOME", "relative/is/ignored"))
	if err != nil || got != "/h/.config/swarm-guard/agent-id" {
		t.Fatalf("got %q, %v", got, err)
	}
}

func TestParent(t *testing.T) {
	for id, want := range map[string]string{"main.feature.auth": "main.feature", "main.feature": "main", "main": "", "a.": "a"} {
		got, ok := Parent(id)
		if got != want || ok != (want != "") {
			t.Errorf("Parent(%q) = %q, %v; want %q", id, got, ok, want)
		}
	}
}

func TestSanitizeHost(t *testing.T) {
	for in, want := range map[string]string{
		"Build-Box.example.com": "build-box", "MY_HOST": "my-host", "": "agent", "---": "agent",
		"ünï": "n", strings.Repeat("x", 80): strings.Repeat("x", 60), "a  b": "a-b",
	} {
		if got := sanitizeHost(in); got != want {
			t.Errorf("sanitizeHost(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewIDIsValid(t *testing.T) {
	for _, h := range []string{"", "x", "Ünïcode.local", "-", strings.Repeat("é", 100)} {
		id, err := NewID(func() (string, error) { return h, nil }, nil)
		if err != nil || !Valid(id) {
			t.Errorf("NewID(host %q) = %q, %v", h, id, err)
		}
	}
}

func TestCorruptFileIsAnErrorNamingIt(t *testing.T) {
	for name, content := range map[string]string{
		"empty": "", "blank": " \n", "two lines": "a\nb\n", "bad chars": "has space\n", "binary": "\x00\x01",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "agent-id")
			if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := LoadOrCreate(path, func() (string, error) { t.Fatal("made a new id over a corrupt file"); return "", nil })
			var fe *FileError
			if !errors.As(err, &fe) || fe.Path != path || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want a FileError naming %s", err, path)
			}
			if data, _ := os.ReadFile(path); string(data) != content {
				t.Fatalf("the corrupt file was changed to %q", data)
			}
		})
	}
}

func TestLoadOrCreatePersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "agent-id")
	n := 0
	mk := func() (string, error) { n++; return fmt.Sprintf("h-%04d", n), nil }
	first, err := LoadOrCreate(path, mk)
	if err != nil {
		t.Fatal(err)
	}
	second, err := LoadOrCreate(path, mk)
	if err != nil || second != first || n != 1 {
		t.Fatalf("second call: %q, %v (made %d ids); want %q from the file", second, err, n, first)
	}
	if data, _ := os.ReadFile(path); string(data) != first+"\n" {
		t.Fatalf("file holds %q", data)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".agent-id*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}

// TestConcurrentFirstCallsAgree races goroutines on a fresh file.
func TestConcurrentFirstCallsAgree(t *testing.T) {
	for round := 0; round < 20; round++ {
		path := filepath.Join(t.TempDir(), "agent-id")
		const n = 16
		ids := make([]string, n)
		errs := make([]error, n)
		var start, done sync.WaitGroup
		start.Add(1)
		for i := range n {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				ids[i], errs[i] = LoadOrCreate(path, func() (string, error) { return fmt.Sprintf("g-%d", i), nil })
			}()
		}
		start.Done()
		done.Wait()
		for i := range n {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("round %d: caller %d got %q, %v; caller 0 got %q", round, i, ids[i], errs[i], ids[0])
			}
		}
	}
}

// TestConcurrentProcessesAgree starts several processes at once against a
// fresh XDG_CONFIG_HOME; each resolves an id the way `swarm-guard id` does.
func TestConcurrentProcessesAgree(t *testing.T) {
	if os.Getenv("IDENTITY_HELPER") == "1" {
		t.Skip("helper")
	}
	cfg := t.TempDir()
	const n = 8
	cmds := make([]*exec.Cmd, n)
	outs := make([]bytes.Buffer, n)
	for i := range cmds {
		c := exec.Command(os.Args[0], "-test.run=^TestHelperResolve$")
		c.Env = append(os.Environ(), "IDENTITY_HELPER=1", "XDG_CONFIG_HOME="+cfg, "SWARM_GUARD_AGENT_ID=", "AGENT_ID=")
		c.Stdout, c.Stderr = &outs[i], &outs[i]
		cmds[i] = c
	}
	for _, c := range cmds {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
	}
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, outs[i].String())
		}
	}
	data, err := os.ReadFile(filepath.Join(cfg, "swarm-guard", "agent-id"))
	if err != nil {
		t.Fatal(err)
	}
	want := "id=" + strings.TrimSpace(string(data)) + "\n"
	for i := range outs {
		if !strings.Contains(outs[i].String(), want) {
			t.Fatalf("process %d printed %q, the file holds %q", i, outs[i].String(), data)
		}
	}
}

func TestHelperResolve(t *testing.T) {
	if os.Getenv("IDENTITY_HELPER") != "1" {
		t.Skip("run by TestConcurrentProcessesAgree")
	}
	id, err := Resolve(Options{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("id=%s\n", id.ID)
}

func TestBranchDuringRebase(t *testing.T) {
	gd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(gd, "rebase-merge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gd, "rebase-merge", "head-name"), []byte("refs/heads/main.feature\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := map[string]struct {
		r    *gitrepo.Repo
		want string
	}{
		"no repo":        {nil, ""},
		"on a branch":    {&gitrepo.Repo{GitDir: gd, Branch: "topic"}, "topic"},
		"rebasing":       {&gitrepo.Repo{GitDir: gd, Detached: true}, "main.feature"},
		"plain detached": {&gitrepo.Repo{GitDir: t.TempDir(), Detached: true}, ""},
	}
	for name, tt := range tests {
		if got := Branch(tt.r); got != tt.want {
			t.Errorf("%s: Branch = %q, want %q", name, got, tt.want)
		}
	}
}
