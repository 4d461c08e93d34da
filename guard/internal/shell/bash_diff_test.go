package shell

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The differential test of the shell layer against real bash: where the
// guard's reading of a command's boundaries (comments, line continuations,
// here-documents, quoting, carriage returns, blanks) differs from bash's,
// bash may run a command the guard never saw. Scripts are built from the
// tokens below, so that the only commands they can run are the made-up
// names of diffCommands: bash runs them with no PATH, and its
// command_not_found_handle writes down each argv (every command that is
// not a builtin, whatever its name). Every command bash ran must be one
// the walk handed to the families with the same argv.

// diffCommands are the commands a generated script runs; none is a bash
// builtin or keyword, and with PATH emptied none is found.
var diffCommands = []string{"aa", "bb", "rm"}

// diffTokens are the pieces scripts are made of. They hold no redirection
// to a file and no builtin that changes anything outside the shell: the
// scripts run in a temporary directory and can only print.
var diffTokens = []string{
	"aa", "bb", "rm", " ", " ", " ", "\t", "x", "-rf", "~/p",
	"\n", "\r\n", "\r", "\\", "\\\n", "\\\r\n", "#", "# c \\\n", "# c\n",
	"'", "\"", "'q r'", "\"d e\"", "$'\\r'", "`", "$(", ")", "(", "{ ", "; }",
	";", "&&", "||", "|", "<<'E'\n", "<<E\n", "\nE\n", "E", "\u00a0", "\v", "\f",
}

// diffScript turns fuzz bytes into a script: each byte picks a token.
func diffScript(b []byte) string {
	var s strings.Builder
	s.WriteString(diffCommands[0] + " ")
	for _, c := range b {
		s.WriteString(diffTokens[int(c)%len(diffTokens)])
	}
	return s.String()
}

// The handler writes each argv in one write: pipeline stages run at once.
const bashPrelude = `command_not_found_handle() { local IFS=$'\037'; printf '%s\036' "$*" >&3; return 0; }
PATH=/nonexistent-swarm-guard-diff
`

// bashRan runs script with real bash -c and returns the argv of every
// command it ran that is not a builtin, joined by \x1f. ok is false when bash
// could not be run to its end (a timeout: a function that calls itself).
func bashRan(t testing.TB, bash, dir, script string) (ran []string, ok bool) {
	out := filepath.Join(dir, "ran")
	fd3, err := os.OpenFile(out, os.O_CREATE|os.O_TRUNC|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer fd3.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// bash -c, as agent clients run a command (a file would lose a
	// trailing backslash that -c keeps).
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "-c", bashPrelude+script)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + dir, "LC_ALL=C"}
	cmd.ExtraFiles = []*os.File{fd3}
	_ = cmd.Run() // a syntax error later in the script still ran what came before
	if ctx.Err() != nil {
		return nil, false
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range bytes.Split(b, []byte{0x1e}) {
		if len(rec) > 0 {
			ran = append(ran, string(rec))
		}
	}
	return ran, true
}

// guardSaw walks script as the guard does, in dir with dir as the home,
// and returns the argv of every simple command handed to the families;
// refused reports that the guard refused the script (it denies it whole:
// nothing to compare).
func guardSaw(script, dir string) (saw []string, refused bool) {
	r := &recorder{}
	r.w = &Walker{Expander: Expander{Tools: r, Env: Env{Home: dir, Cwd: dir, Root: dir}}, Families: &argvRecorder{recorder: r, saw: &saw}}
	r.w.Script(script, NewState(dir), nil)
	for _, g := range r.got {
		if strings.HasPrefix(g, "refused") {
			return nil, true
		}
	}
	return saw, r.w.Aborted()
}

// anyArgs stands for arguments only known at run time.
const anyArgs = "\x00*"

// argvRecorder is the walk's recorder that also keeps each argv exactly.
type argvRecorder struct {
	*recorder
	saw *[]string
}

func (a *argvRecorder) Command(inv *Invocation) {
	if len(inv.Argv) > 0 {
		var texts []string
		for _, w := range inv.Argv {
			if !w.Static() {
				// Known only at run time: the name is what can be compared.
				texts = []string{inv.Argv[0].Text, anyArgs}
				break
			}
			texts = append(texts, w.Text)
		}
		*a.saw = append(*a.saw, strings.Join(texts, "\x1f"))
	}
	a.recorder.Command(inv)
}

// diffCheck fails when bash ran a command the guard did not see.
func diffCheck(t testing.TB, bash, dir, script string) {
	saw, refused := guardSaw(script, dir)
	if refused {
		return
	}
	ran, ok := bashRan(t, bash, dir, script)
	if !ok {
		return
	}
	// A command whose name is only known at run time is denied by the
	// guard (dynamic-command): whatever bash ran in its place was judged.
	dynamicName := slices.ContainsFunc(saw, func(s string) bool { return strings.HasPrefix(s, "\x1f"+anyArgs) })
	for _, argv := range ran {
		name, _, _ := strings.Cut(argv, "\x1f")
		if dynamicName || slices.Contains(saw, argv) || slices.Contains(saw, name+"\x1f"+anyArgs) {
			continue
		}
		// A backslash that ends the text: bash -c keeps it as an argument,
		// drops it after a line continuation, or reads a byte past the end
		// (bash 5.2); the guard always sees it. What bash ran before it
		// must still match.
		if !strings.HasSuffix(script, "\\") || !slices.ContainsFunc(saw, func(s string) bool {
			return strings.HasSuffix(s, "\\") && strings.HasPrefix(argv+"\x1f", strings.TrimSuffix(s, "\\"))
		}) {
			t.Errorf("bash ran %q, which the guard never saw\nscript: %q\nguard saw: %q", argv, script, saw)
			return
		}
	}
}

func needBash(t testing.TB) string {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	return bash
}

// TestBashRunsWhatTheGuardSees: the bypasses found so far, each next to
// its safe twin, then scripts made of random tokens.
func TestBashRunsWhatTheGuardSees(t *testing.T) {
	bash := needBash(t)
	dir := t.TempDir()
	for _, script := range []string{
		"aa ok # note \\\nrm -rf ~/precious",    // bash never continues a comment
		"aa ok # note\nrm -rf ~/precious",       // the twin without the backslash
		"aa a \\\r\nrm -rf ~/precious",          // \ escapes the CR; the LF ends the command
		"aa a \\\nrm -rf ~/precious",            // a real continuation: one command, rm is an argument
		"aa a\rrm -rf ~/precious",               // CR is part of the word a<CR>rm
		"aa `aa a # x \\\nrm y`",                // a comment inside backquotes
		"aa $(aa # c \\\nrm -rf ~/p)",           // a comment inside $(...)
		"aa <<'E'\nx \\\nE\nrm -rf ~/p\nE",      // a quoted here-document keeps \ newline
		"aa <<E\nx \\\nE\nrm -rf ~/p\nE",        // an unquoted one joins the lines
		"aa # one \\\naa # two \\\nrm -rf ~/p",  // comments one after the other
		"aa 'x # y \\\nrm -rf ~/p'",             // no comment inside quotes
		"aa x\r# c \\\nrm -rf ~/p",              // CR then # is one word for bash
		"aa x \r# c \\\r\nrm -rf ~/p",           // a comment ending in \ CR LF
		"{ aa; } # c \\\nrm -rf ~/p",            // after a block
		"aa && bb # c \\\n|| rm -rf ~/p",        // the next line starts with an operator
		"aa \u00a0\v\f rm # c \\\n\trm -rf ~/p", // odd blanks are word characters for both
		"aa `<<'E'\n``\nrm -rf ~/p\nE\n`",       // a here-document inside backquotes: refused
		"aa $(<<'E'\n``\nrm -rf ~/p\nE\n)",      // the same in $(...): one reading
	} {
		diffCheck(t, bash, dir, script)
	}
	n := 400
	if testing.Short() {
		n = 60
	}
	rng := rand.New(rand.NewPCG(27, 11))
	for range n {
		b := make([]byte, 3+rng.IntN(14))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		diffCheck(t, bash, dir, diffScript(b))
	}
}

// FuzzBashRunsWhatTheGuardSees is the differential test as a fuzz target:
// each input byte picks a token of diffTokens (make fuzz).
func FuzzBashRunsWhatTheGuardSees(f *testing.F) {
	bash := needBash(f)
	for _, seed := range [][]byte{{17, 1, 10, 7, 8, 9}, {13, 14, 7, 8, 9}, {36, 6, 15, 34, 35, 7}} {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 64 {
			return
		}
		diffCheck(t, bash, dir, diffScript(b))
	})
}
