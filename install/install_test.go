package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/policy"
)

const bin = "/opt/swarm-guard/bin/swarm-guard"

func apply(t *testing.T, p *Plan, err error) *Plan {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	return p
}

func actions(p *Plan) map[string]string {
	m := map[string]string{}
	for _, c := range p.Changes {
		m[filepath.Base(c.Path)] = c.Action
	}
	return m
}

// TestSettingsRoundTrip installs and uninstalls over settings files of
// every history: what uninstall leaves must be what the user expects.
func TestSettingsRoundTrip(t *testing.T) {
	tests := map[string]struct {
		before    *string             // nil: no file
		between   func(string) string // an edit made after install
		wantAfter *string             // nil: no file; else exact content
		contains  string              // when wantAfter is not exact
		action    string
	}{
		"created by install is removed": {before: nil, wantAfter: nil, action: "remove"},
		"original comes back byte for byte": {
			before: ptr("{\"permissions\":{\"allow\":[\"Bash(ls)\"]},   \"model\": \"x\"}\n"),
			action: "restore",
		},
		"empty hooks object kept": {before: ptr("{\n\t\"hooks\": {}\n}\n"), action: "restore"},
		"edited since install keeps the edit": {
			before:   ptr("{\"model\": \"x\"}"),
			between:  func(s string) string { return strings.Replace(s, "{", "{\n  \"added\": true,", 1) },
			contains: `"added": true`,
			action:   "update",
		},
		"file that held only other hooks and then ours": {
			before: ptr(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"echo mine"}]}]}}`),
			action: "restore",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			root, state := t.TempDir(), t.TempDir()
			sp := clientconfig.SettingsPath(root)
			if tt.before != nil {
				os.MkdirAll(filepath.Dir(sp), 0o755)
				os.WriteFile(sp, []byte(*tt.before), 0o600)
			}
			o := Options{Root: root, Binary: bin, StateDir: state}
			p, err := PlanInstall(o)
			apply(t, p, err)
			if tt.between != nil {
				data, _ := os.ReadFile(sp)
				os.WriteFile(sp, []byte(tt.between(string(data))), 0o600)
			}
			p, err = PlanUninstall(o)
			p = apply(t, p, err)
			if got := actions(p)["settings.json"]; got != tt.action {
				t.Fatalf("uninstall action %q, want %q", got, tt.action)
			}
			data, err := os.ReadFile(sp)
			want := tt.wantAfter
			if want == nil && tt.contains == "" {
				want = tt.before
			}
			switch {
			case tt.contains != "":
				if !strings.Contains(string(data), tt.contains) || strings.Contains(string(data), "swarm-guard") {
					t.Fatalf("settings after uninstall: %q", data)
				}
			case want == nil:
				if err == nil {
					t.Fatalf("settings file still there: %q", data)
				}
				if _, err := os.Stat(filepath.Dir(sp)); err == nil {
					t.Fatal(".claude directory left behind")
				}
			default:
				if string(data) != *want {
					t.Fatalf("settings after uninstall:\n%q\nwant\n%q", data, *want)
				}
				if fi, _ := os.Stat(sp); fi.Mode().Perm() != 0o600 {
					t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
				}
			}
			if entries, _ := os.ReadDir(filepath.Join(state, "backup")); len(entries) != 0 {
				t.Fatalf("backups left behind: %v", entries)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func TestPolicyFileRemovedOnlyWhenInstallCreatedIt(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	o := Options{Root: root, Binary: bin, StateDir: state}
	pp := filepath.Join(root, policy.FileName)

	// A policy file that was there (even one equal to the default) stays.
	os.WriteFile(pp, []byte(policy.DefaultText), 0o644)
	p, err := PlanInstall(o)
	apply(t, p, err)
	p, err = PlanUninstall(o)
	apply(t, p, err)
	if _, err := os.Stat(pp); err != nil {
		t.Fatal("uninstall removed a policy file install did not create")
	}

	// One install created goes; one edited since stays.
	os.Remove(pp)
	p, err = PlanInstall(o)
	apply(t, p, err)
	p, err = PlanUninstall(o)
	apply(t, p, err)
	if _, err := os.Stat(pp); err == nil {
		t.Fatal("the default policy install created is still there")
	}
	p, err = PlanInstall(o)
	apply(t, p, err)
	os.WriteFile(pp, []byte(policy.DefaultText+"\n# mine\n"), 0o644)
	p, err = PlanUninstall(o)
	p = apply(t, p, err)
	if _, err := os.Stat(pp); err != nil || actions(p)[policy.FileName] != "keep" {
		t.Fatalf("an edited policy file was removed (%v)", actions(p))
	}
	if _, err := os.Stat(filepath.Join(state, recordName)); err == nil {
		t.Fatal("the install record still lists files")
	}
}

func TestGitHooksPlan(t *testing.T) {
	root, state := t.TempDir(), t.TempDir()
	hooks := filepath.Join(root, "hooks")
	os.MkdirAll(hooks, 0o755)
	o := Options{Root: root, Binary: bin, StateDir: state, Git: &GitHooks{Dir: hooks, DefaultDir: hooks}}
	foreign := []byte("#!/bin/sh\necho theirs\n")
	os.WriteFile(filepath.Join(hooks, "pre-push"), foreign, 0o750)
	os.Symlink("/somewhere/else", filepath.Join(hooks, "commit-msg"))

	p, err := PlanInstall(o)
	p = apply(t, p, err)
	got := actions(p)
	for name, want := range map[string]string{"pre-commit": "create", "pre-push": "chain", "commit-msg": "chain", "prepare-commit-msg": "create"} {
		if got[name] != want {
			t.Errorf("%s: %s, want %s", name, got[name], want)
		}
	}
	if target, err := os.Readlink(filepath.Join(hooks, "commit-msg"+ChainSuffix)); err != nil || target != "/somewhere/else" {
		t.Fatalf("the symlinked hook was not chained as a link: %q, %v", target, err)
	}
	p, err = PlanInstall(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Changes {
		if c.Changed() {
			t.Errorf("second install: %s %s", c.Action, c.Path)
		}
	}

	// Someone replaced our hook while the chained one is still there.
	os.WriteFile(filepath.Join(hooks, "pre-push"), []byte("#!/bin/sh\n"), 0o755)
	if _, err := PlanInstall(o); err == nil || !strings.Contains(err.Error(), "holds the hook that was there before swarm-guard; git can run only one of them") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	os.WriteFile(filepath.Join(hooks, "pre-push"), HookScript("pre-push", bin), 0o755)

	p, err = PlanUninstall(o)
	apply(t, p, err)
	if data, _ := os.ReadFile(filepath.Join(hooks, "pre-push")); string(data) != string(foreign) {
		t.Fatalf("pre-push after uninstall: %q", data)
	}
	if fi, _ := os.Stat(filepath.Join(hooks, "pre-push")); fi.Mode().Perm() != 0o750 {
		t.Fatalf("pre-push mode %v, want 0750", fi.Mode().Perm())
	}
	if target, _ := os.Readlink(filepath.Join(hooks, "commit-msg")); target != "/somewhere/else" {
		t.Fatalf("commit-msg link after uninstall: %q", target)
	}
	entries, _ := os.ReadDir(hooks)
	if len(entries) != 2 {
		t.Fatalf("hooks left: %v", entries)
	}
}

func TestRefusalWritesNothing(t *testing.T) {
	root := t.TempDir()
	o := Options{Root: root, Binary: bin, StateDir: t.TempDir(), Git: &GitHooks{Refusal: "no"}}
	if _, err := PlanInstall(o); err == nil {
		t.Fatal("no error")
	}
	if entries, _ := os.ReadDir(root); len(entries) != 0 {
		t.Fatalf("planning wrote %v", entries)
	}
}
