package ci

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fakeScanCommand writes a shell script that stands in for
// `swarm-guard scan`: it records its arguments and directory, prints
// stdout and exits with code.
func fakeScanCommand(t *testing.T, stdout, stderr string, code int) (cmd []string, argsFile string) {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("needs sh")
	}
	dir := t.TempDir()
	argsFile = filepath.Join(dir, "args")
	script := "#!/bin/sh\necho \"$PWD $*\" > '" + argsFile + "'\n" +
		"printf '%s' '" + stdout + "'\nprintf '%s\\n' '" + stderr + "' >&2\nexit " + strconv.Itoa(code) + "\n"
	path := filepath.Join(dir, "scan")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{path, "scan"}, argsFile
}

func TestCommandScanner(t *testing.T) {
	r := Range{Base: "b1", Head: "h2"}
	work := t.TempDir()

	findings := `{"findings":[{"file":"a.env","line":3,"rule":"aws-access-token","commit":"c1","preview":"AKIA****","fingerprint":"c1:a.env:aws-access-token:3","extra":1}],"stats":{}}`
	cmd, argsFile := fakeScanCommand(t, findings, "", 1)
	got, err := CommandScanner{Command: cmd}.ScanRange(context.Background(), work, r)
	if err != nil || len(got) != 1 || got[0] != (SecretFinding{File: "a.env", Line: 3, Rule: "aws-access-token", Commit: "c1", Preview: "AKIA****", Fingerprint: "c1:a.env:aws-access-token:3"}) {
		t.Fatalf("findings = %+v, %v", got, err)
	}
	args, _ := os.ReadFile(argsFile)
	if want := work + " scan --range b1..h2 --format json\n"; string(args) != want {
		t.Errorf("scanner ran as %q, want %q", args, want)
	}

	cmd, _ = fakeScanCommand(t, `{"findings":[]}`, "", 0)
	if got, err := (CommandScanner{Command: cmd}).ScanRange(context.Background(), work, r); err != nil || len(got) != 0 {
		t.Errorf("clean scan = %+v, %v", got, err)
	}

	cmd, _ = fakeScanCommand(t, "", "swarm-guard scan: swarm-guard-secrets is not installed; run go install ...", 2)
	_, err = CommandScanner{Command: cmd}.ScanRange(context.Background(), work, r)
	if err == nil || !strings.Contains(err.Error(), "exit 2): swarm-guard scan: swarm-guard-secrets is not installed") {
		t.Errorf("exit 2: err = %v, want the scanner's own message", err)
	}

	cmd, _ = fakeScanCommand(t, "not json", "", 0)
	if _, err = (CommandScanner{Command: cmd}).ScanRange(context.Background(), work, r); err == nil || !strings.Contains(err.Error(), "JSON") {
		t.Errorf("garbage output: err = %v", err)
	}

	if _, err = (CommandScanner{Command: []string{filepath.Join(work, "missing")}}).ScanRange(context.Background(), work, r); err == nil || !strings.Contains(err.Error(), "cannot run the secret scanner") {
		t.Errorf("missing program: err = %v", err)
	}
	if _, err = (CommandScanner{}).ScanRange(context.Background(), work, r); err == nil {
		t.Error("no command: want an error")
	}
}

func TestScannerErrorMessagesAreRedacted(t *testing.T) {
	token := "ghp_" + strings.Repeat("x1Y", 12)
	cmd, _ := fakeScanCommand(t, "", "failed near "+token, 2)
	_, err := CommandScanner{Command: cmd}.ScanRange(context.Background(), t.TempDir(), Range{Base: "a", Head: "b"})
	if err == nil || strings.Contains(err.Error(), token) {
		t.Errorf("err = %v; a token in the scanner's stderr must be redacted", err)
	}
}
