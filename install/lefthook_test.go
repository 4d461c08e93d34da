package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
)

// Every layout of a lefthook config install meets: the edit parses, holds
// swarm-guard's command for every hook, is stable (a second install
// changes nothing) and comes out again byte for byte.
func TestLefthookBlocksRoundTrip(t *testing.T) {
	cases := map[string]string{
		"empty":             "",
		"comments only":     "# lefthook, later\n",
		"commands":          "pre-commit:\n  parallel: true\n  commands:\n    lint:\n      run: yarn lint {staged_files}\n",
		"no final newline":  "pre-commit:\n  commands:\n    lint:\n      run: yarn lint",
		"jobs":              "pre-commit:\n  jobs:\n    - name: lint\n      run: yarn lint\n    - run: yarn test\n",
		"jobs not indented": "pre-push:\n  jobs:\n  - name: test\n    run: yarn test\n",
		"empty hook":        "pre-push:\ncommit-msg:\n  commands:\n    lint:\n      run: commitlint --edit {1}\n",
		"empty commands":    "pre-commit:\n  commands:\n  parallel: true\n",
		"hook options only": "pre-commit:\n  parallel: true\n  skip:\n    - merge\n",
		"four spaces":       "pre-commit:\n    commands:\n        lint:\n            run: yarn lint\n",
		"crlf":              "pre-commit:\r\n  commands:\r\n    lint:\r\n      run: x\r\n",
		"document start":    "---\npre-commit:\n  # the linters\n  commands:\n    # eslint\n    lint:\n      run: x\n",
		"quoted keys":       "\"pre-commit\":\n  \"commands\":\n    lint:\n      run: x\n",
		"other keys":        "min_version: 2.0.0\nextends:\n  - other.yml\npre-commit:\n  commands:\n    lint:\n      run: x\noutput:\n  - summary\n",
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := withLefthookBlocks("lefthook.yml", in)
			if err != nil {
				t.Fatal(err)
			}
			var doc yaml.Node
			if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatalf("the edited config does not parse: %v\n%s", err, out)
			}
			path := filepath.Join(t.TempDir(), "lefthook.yml")
			if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := InspectLefthook(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range HookNames {
				if !got[h].Ours {
					t.Errorf("%s: no swarm-guard command found after install:\n%s", h, out)
				}
			}
			again, err := withLefthookBlocks("lefthook.yml", out)
			if err != nil || again != out {
				t.Errorf("a second install changes the config (err %v):\n%s", err, again)
			}
			back, found, ok := withoutLefthookBlocks(out)
			if !found || !ok || back != in {
				t.Errorf("uninstall does not restore the config byte for byte (found %v, ok %v):\n%q\nwant\n%q", found, ok, back, in)
			}
			// The user's own keys are all still there.
			var before, after map[string]any
			_ = yaml.Unmarshal([]byte(in), &before)
			_ = yaml.Unmarshal([]byte(out), &after)
			for k := range before {
				if _, ok := after[k]; !ok {
					t.Errorf("key %s lost", k)
				}
			}
		})
	}
}

// TestLefthookBlocksRefused: a config install cannot edit is refused with
// a message naming the file and, for a hook it cannot edit, the fix: a
// hook of install's name that install did not write is removed, any other
// written in block style.
func TestLefthookBlocksRefused(t *testing.T) {
	const block, remove = "; write that hook in block style", "; remove it: install writes its own"
	cases := map[string]struct{ in, fix string }{
		"flow hook":        {"pre-commit: {commands: {lint: {run: x}}}\n", block},
		"flow commands":    {"pre-commit:\n  commands: {lint: {run: x}}\n", block},
		"hand-made":        {"pre-commit:\n  commands:\n    swarm-guard:\n      run: swarm-guard git-hook pre-commit\n", remove},
		"hand-made job":    {"pre-commit:\n  jobs:\n    - name: swarm-guard\n      run: swarm-guard git-hook pre-commit\n", remove},
		"not a mapping":    {"- pre-commit\n", ""},
		"invalid":          {"pre-commit:\n  commands: [\n", ""},
		"scalar hook":      {"pre-commit: yes\n", block},
		"unclosed marker":  {"# >>> swarm-guard >>> added by swarm-guard install; swarm-guard uninstall removes it\npre-commit:\n", ""},
		"explicit null":    {"pre-commit: ~\n", ""},
		"commands as list": {"pre-commit:\n  commands:\n    - run: x\n", block},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			out, err := withLefthookBlocks("lefthook.yml", c.in)
			if err == nil {
				t.Fatalf("no error; got\n%s", out)
			}
			if !strings.Contains(err.Error(), "lefthook.yml") {
				t.Errorf("the message does not name the file: %v", err)
			}
			if c.fix != "" && !strings.Contains(err.Error(), c.fix) {
				t.Errorf("the message does not say %q: %v", c.fix, err)
			}
		})
	}
}

func TestFindLefthookConfig(t *testing.T) {
	write := func(root string, names ...string) {
		for _, n := range names {
			p := filepath.Join(root, n)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cases := []struct {
		files      []string
		path, main string
		refused    bool
	}{
		{files: nil},
		{files: []string{"lefthook.yml"}, path: "lefthook.yml"},
		{files: []string{".lefthook.yml"}, path: ".lefthook.yml"},
		{files: []string{"lefthook.yaml"}, path: "lefthook.yaml"},
		{files: []string{".config/lefthook.yml"}, path: ".config/lefthook.yml"},
		{files: []string{"lefthook.yml", "lefthook-local.yml"}, path: "lefthook.yml"},
		{files: []string{"lefthook-local.yml"}, path: "lefthook-local.yml"},
		{files: []string{".lefthook-local.yaml"}, path: ".lefthook-local.yaml"},
		// lefthook looks at every .yml before any .yaml.
		{files: []string{"lefthook.yaml", ".lefthook.yml"}, path: ".lefthook.yml"},
		{files: []string{"lefthook.toml"}, path: "lefthook-local.yml", main: "lefthook.toml"},
		{files: []string{"lefthook.json", "lefthook-local.yml"}, path: "lefthook-local.yml", main: "lefthook.json"},
		{files: []string{"lefthook.json", "lefthook-local.json"}, refused: true},
		{files: []string{"lefthook-local.toml"}, refused: true},
	}
	for _, c := range cases {
		root := t.TempDir()
		write(root, c.files...)
		got := FindLefthookConfig(root)
		if c.path == "" && !c.refused {
			if got != nil {
				t.Errorf("%v: found %+v, want none", c.files, got)
			}
			continue
		}
		if got == nil {
			t.Errorf("%v: found none", c.files)
			continue
		}
		if c.refused {
			if got.Refusal == "" {
				t.Errorf("%v: not refused", c.files)
			}
			continue
		}
		main := ""
		if got.Main != "" {
			main, _ = filepath.Rel(root, got.Main)
		}
		if rel, _ := filepath.Rel(root, got.Path); rel != filepath.FromSlash(c.path) || main != c.main || got.Refusal != "" {
			t.Errorf("%v: got %s (main %q, refusal %q), want %s (main %q)", c.files, rel, main, got.Refusal, c.path, c.main)
		}
	}
}

// The command lefthook runs gets git's arguments as git passed them, even
// those lefthook pastes into the command text unquoted; missing ones
// ({3} left as it is) are dropped. Its exit status is swarm-guard's; with
// no swarm-guard anywhere it fails with the install hint.
func TestLefthookRunArgs(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	bin := filepath.Join(dir, "bin", "swarm-guard")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	fake := "#!/bin/sh\n{ for a in \"$@\"; do echo \"[$a]\"; done; cat; } >>" + shellQuote(log) + "\nexit 1\n"
	if err := os.WriteFile(bin, []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	// lefthook's substitution: {N} becomes the N-th argument, as is.
	substitute := func(run string, args []string) string {
		for i, a := range args {
			run = strings.ReplaceAll(run, "{"+strconv.Itoa(i+1)+"}", a)
		}
		return run
	}
	cases := []struct {
		hook string
		args []string
	}{
		{"pre-commit", nil},
		{"commit-msg", []string{".git/COMMIT_EDITMSG"}},
		{"prepare-commit-msg", []string{".git/COMMIT_EDITMSG"}},
		{"prepare-commit-msg", []string{".git/COMMIT_EDITMSG", "message"}},
		{"prepare-commit-msg", []string{"/tmp/it's here/COMMIT_EDITMSG", "commit", "HEAD"}},
		{"pre-push", []string{"origin", "/tmp/it's.git; exit 0 # `x` $HOME"}},
	}
	for _, c := range cases {
		os.Remove(log)
		cmd := exec.Command("sh", "-c", substitute(lefthookRun(c.hook), c.args))
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+":/usr/bin:/bin")
		if c.hook == "pre-push" {
			cmd.Stdin = strings.NewReader("refs on stdin\n")
		}
		out, err := cmd.CombinedOutput()
		ee, _ := err.(*exec.ExitError)
		if ee == nil || ee.ExitCode() != 1 {
			t.Errorf("%s %q: exit %v, want swarm-guard's 1; output %s", c.hook, c.args, err, out)
		}
		got, _ := os.ReadFile(log)
		want := "[git-hook]\n[" + c.hook + "]\n"
		for _, a := range c.args {
			want += "[" + a + "]\n"
		}
		if c.hook == "pre-push" {
			want += "refs on stdin\n"
		}
		if string(got) != want {
			t.Errorf("%s %q: swarm-guard got\n%q\nwant\n%q", c.hook, c.args, got, want)
		}
	}
	// No swarm-guard: the hook fails with the install hint.
	cmd := exec.Command("sh", "-c", lefthookRun("pre-commit"))
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	ee, _ := err.(*exec.ExitError)
	if ee == nil || ee.ExitCode() != 1 || strings.TrimSpace(string(out)) != clientconfig.InstallHint {
		t.Errorf("without swarm-guard: exit %v, output %q; want 1 and the install hint", err, out)
	}
}
