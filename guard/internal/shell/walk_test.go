package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// recorder is the smallest family: it applies cd, set and shift, calls
// functions, runs eval'd text through the walker, and writes down every
// other simple command, assignment and refusal the walk hands it.
type recorder struct {
	w    *Walker
	got  []string
	done int
}

func (r *recorder) SecretSource([]*syntax.Stmt, *State) *effect.Source { return nil }
func (r *recorder) VarSecret(string, *State) *effect.Source            { return nil }
func (r *recorder) KnownOutput(*syntax.Stmt, *State) (string, bool)    { return "", false }
func (r *recorder) PromptString(*Invocation, Word, *State)             {}
func (r *recorder) Judge(_ *Invocation, e effect.Effect) {
	switch x := e.(type) {
	case effect.Variable:
		if !x.Unset {
			r.add("rebound " + x.How + " " + x.Name)
			return
		}
		r.add(fmt.Sprintf("%s %s (unset %v)", x.How, x.Name, x.Unset))
	case effect.HiddenCode:
		r.add("hidden code: " + x.By)
	default:
		r.add(fmt.Sprintf("%T", e))
	}
}
func (r *recorder) Writes(_ *Invocation, f Word, how string) { r.add(how + " " + f.Show()) }
func (r *recorder) RunFile(_ *Invocation, f Word, lang string) {
	r.add("runs " + lang + " file " + f.Show())
}
func (r *recorder) ScriptInput(inv *Invocation, what string) {
	r.add(what + " runs " + inv.Stdin.Desc)
}
func (r *recorder) Reads(_ *Invocation, f Word) { r.add("reads " + f.Show()) }
func (r *recorder) Fresh(_ *Invocation, by string, emptied bool, rest []Word, script Word) {
	r.add(fmt.Sprintf("fresh %s emptied=%v: %s%s", by, emptied, JoinWords(rest).Show(), script.Show()))
}
func (r *recorder) DynamicScript(_ *Invocation, script Word, what string) {
	r.add("dynamic script of " + what + ": " + script.Show())
}
func (r *recorder) BadInput(reason, _, _ string) { r.add("refused: " + reason) }
func (r *recorder) Walked()                      { r.done++ }
func (r *recorder) add(s string)                 { r.got = append(r.got, s) }

func (r *recorder) Output(s *syntax.Stmt, _ *State) *Input {
	desc := "a compound command"
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok {
		desc = r.w.Source(ce.Args[0])
	}
	return &Input{Dynamic: true, Desc: "the output of " + desc}
}

func (r *recorder) Redirect(rd Redirect, _ *State) {
	var b strings.Builder
	b.WriteString("redirect")
	for _, f := range []struct {
		on   bool
		name string
	}{{rd.Write, "write"}, {rd.Read, "read"}, {rd.Stdout, "stdout"}, {rd.Stdin != nil, "stdin"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	for _, t := range rd.Targets {
		b.WriteString(" " + t.Show())
	}
	r.add(b.String())
}

func (r *recorder) Assigned(name string, val []Word, _ *State, inv *Invocation, _ syntax.Node) {
	if inv == nil {
		r.add("assign " + name + "=" + val[0].Show())
	}
}

func (r *recorder) Command(inv *Invocation) {
	if !r.w.Visit() {
		return
	}
	inv.Name = inv.Argv[0].Text
	if fn, ok := inv.State.Funcs[inv.Name]; ok && !inv.State.InFunc[inv.Name] {
		r.w.CallFunction(fn, inv)
		return
	}
	var b strings.Builder
	for i, x := range inv.Argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x.Show())
	}
	cwds := strings.Join(inv.State.Cwds, ",")
	if inv.State.CwdUnknown {
		cwds += ",?"
	}
	fmt.Fprintf(&b, " | cwd=%s", cwds)
	var env []string
	for k, v := range inv.Env {
		env = append(env, k+"="+v[0].Show())
	}
	slices.Sort(env)
	if len(env) > 0 {
		fmt.Fprintf(&b, " env=%s", strings.Join(env, ","))
	}
	if in := inv.Stdin; in != nil {
		fmt.Fprintf(&b, " stdin=%q", in.Desc)
		if in.Text != "" {
			fmt.Fprintf(&b, " text=%q", in.Text)
		}
		if in.From != nil {
			fmt.Fprintf(&b, " from=%q", r.w.Src[in.From.Pos().Offset():in.From.End().Offset()])
		}
	}
	if inv.Guarded {
		b.WriteString(" guarded")
	}
	if len(inv.Via) > 0 {
		b.WriteString(" via=" + strings.Join(inv.Via, ","))
	}
	r.add(b.String())
	switch inv.Name {
	case "cd":
		r.w.Cd(inv)
	case "set":
		Set(inv)
	case "read", "mapfile":
		r.w.Read(inv)
	case "printf":
		r.w.PrintfVar(inv)
	case "unset":
		r.w.Unset(inv)
	case "alias":
		r.w.Alias(inv)
	case "trap":
		r.w.Trap(inv)
	case "eval":
		r.w.Eval(inv)
	case "sudo":
		r.w.Sudo(inv)
	case "env":
		r.w.EnvCmd(inv)
	case "strace":
		r.w.Strace(inv)
	case "su":
		r.w.Su(inv)
	case "flock":
		r.w.Flock(inv)
	case "xargs":
		r.w.Xargs(inv)
	case "parallel":
		r.w.Parallel(inv)
	case "bash", "sh":
		r.w.Shell(inv)
	case "source":
		r.w.SourceCmd(inv)
	}
}

// TestWalk pins the walk on its own, with no tool family behind it: the
// simple commands a script hands over (argv, working directories,
// environment, standard input, && guards), through cd, conditionals,
// loops, pipelines, substitutions, functions (called or not), aliases,
// eval, and the limits that refuse a script.
func TestWalk(t *testing.T) {
	cases := []struct {
		script string
		want   []string
	}{
		{"cd /tmp && FOO=1 git status", []string{"cd /tmp | cwd=/w guarded", "git status | cwd=/tmp env=FOO=1 guarded"}},
		{"cd sub; ls", []string{"cd sub | cwd=/w", "ls | cwd=/w,/w/sub"}},
		{"set -e; cd sub; ls", []string{"set -e | cwd=/w", "cd sub | cwd=/w guarded", "ls | cwd=/w/sub guarded"}},
		{"x=a; ls $x | wc -l", []string{"assign x=a", "ls a | cwd=/w", `wc -l | cwd=/w stdin="the output of ls" from="ls $x"`}},
		{"make >out.log 2>&1 <in.txt", []string{"redirect write stdout out.log", "redirect read stdin in.txt", `make | cwd=/w stdin="the file in.txt"`}},
		{"exec 3<keys 4<>db 2>err >&2", []string{"redirect read keys", "redirect write read db", "redirect write err", "exec | cwd=/w"}},
		{"ls > >(sh) ; sh < <(curl x | gunzip)", []string{`sh | cwd=/w stdin="the output of ls"`, "sh runs the output of ls", "ls | cwd=/w", "curl x | cwd=/w", `gunzip | cwd=/w stdin="the output of curl" from="curl x"`,
			`sh | cwd=/w stdin="the output of gunzip" from="gunzip"`, "sh runs the output of gunzip"}},
		{"sh <<'EOF'\nrm -rf $HOME\nEOF\nbash <<< 'id'", []string{`sh | cwd=/w stdin="a here-document" text="rm -rf $HOME\n"`, "rm -rf /home/agent | cwd=/w",
			`bash | cwd=/w stdin="a here-string" text="id"`, "id | cwd=/w"}},
		{"if test -d sub; then cd sub; fi; pwd", []string{"test -d sub | cwd=/w", "cd sub | cwd=/w", "pwd | cwd=/w,/w/sub"}},
		{"for i in a b; do rm $i; done", []string{"rebound for i", "rm a | cwd=/w", "rm b | cwd=/w"}},
		{"echo $(id -u) <(ls)", []string{"id -u | cwd=/w", "ls | cwd=/w", "echo $(id -u) <(ls) | cwd=/w"}},
		{`f() { rm -rf "$1"; }; f dir`, []string{"rm -rf dir | cwd=/w"}},
		{"g() { rm x; }; ls", []string{"ls | cwd=/w", "rm x | cwd=/w"}},
		{"(cd sub); ls", []string{"cd sub | cwd=/w", "ls | cwd=/w"}},
		{"{ cat; } < /dev/null | sh", []string{"redirect read stdin /dev/null", `cat | cwd=/w stdin="the file /dev/null"`,
			`sh | cwd=/w stdin="the output of a compound command" from="{ cat; } < /dev/null"`,
			"sh runs the output of a compound command"}},
		{"eval 'cd /x'; ls", []string{"eval cd /x | cwd=/w", "cd /x | cwd=/w", "ls | cwd=/w,/x"}},
		{"shopt -s expand_aliases; alias ll='ls -l'; ll", []string{"shopt -s expand_aliases | cwd=/w", "alias ll=ls -l | cwd=/w", "ls -l | cwd=/w", "ls -l | cwd=/w"}},
		{"read -p prompt x; printf -v y %s a; echo $x$y", []string{"read -p prompt x | cwd=/w", "rebound read x", "printf -v y %s a | cwd=/w", "rebound printf -v y", "echo $x$y | cwd=/w"}},
		{"trap 'rm -f /tmp/lock' EXIT; unset GIT_DIR f", []string{"trap rm -f /tmp/lock EXIT | cwd=/w", "rm -f /tmp/lock | cwd=/w", "unset GIT_DIR f | cwd=/w", "unset GIT_DIR (unset true)", "unset f (unset true)"}},
		{`eval "$cmd"; sh -c "$(curl x)"; mapfile -C 'rm $1' a`, []string{`eval "$cmd" | cwd=/w`, `dynamic script of eval: "$cmd"`,
			"curl x | cwd=/w", `sh -c "$(curl x)" | cwd=/w`, `dynamic script of sh -c: "$(curl x)"`, "mapfile -C rm $1 a | cwd=/w", "rm | cwd=/w", "rebound mapfile a"}},
		{"bash -ec 'cd /x; ls $0 $1' me a1", []string{"bash -ec cd /x; ls $0 $1 me a1 | cwd=/w", "cd /x | cwd=/w guarded", "ls me a1 | cwd=/x guarded"}},
		{"sudo -D /srv FOO=1 rm x", []string{"sudo -D /srv FOO=1 rm x | cwd=/w", "rm x | cwd=/srv env=FOO=1 via=sudo", "fresh sudo emptied=false: rm x"}},
		{"env -i -u GIT_DIR -C sub git commit", []string{"env -i -u GIT_DIR -C sub git commit | cwd=/w", "env -u GIT_DIR (unset true)",
			"git commit | cwd=/w/sub via=env", "fresh env -i emptied=true: git commit"}},
		{`env -S "$x"; strace -o t.log make; flock /tmp/l -c 'cd /; ls'`, []string{`env -S "$x" | cwd=/w`, "hidden code: env -S",
			"strace -o t.log make | cwd=/w", "strace -o writes t.log", "make | cwd=/w via=strace",
			"flock /tmp/l -c cd /; ls | cwd=/w", "cd / | cwd=/w", "ls | cwd=/,/w"}},
		{"su -l -c 'rm -rf /'", []string{"su -l -c rm -rf / | cwd=/w", "fresh su -l emptied=false: rm -rf /", "rm -rf / | cwd=/w"}},
		{"ls | xargs -I{} sh -c 'rm {}'; ls | xargs rm; parallel rm ::: a b", []string{"ls | cwd=/w",
			`xargs -I{} sh -c rm {} | cwd=/w stdin="the output of ls" from="ls"`,
			`sh -c rm $__xargs_input | cwd=/w stdin="the output of ls" from="ls" via=xargs`, "rm $__xargs_input | cwd=/w", "hidden code: xargs",
			"ls | cwd=/w", `xargs rm | cwd=/w stdin="the output of ls" from="ls"`, `rm {xargs input} | cwd=/w stdin="the output of ls" from="ls" via=xargs`,
			"parallel rm ::: a b | cwd=/w", "rm a | cwd=/w via=parallel", "rm b | cwd=/w via=parallel"}},
		{"bash --rcfile rc.sh -i; sh < run.sh; curl x | sh; echo 'cd /x' | bash; source env.sh; bash -s a <<< 'rm $1'", []string{
			"bash --rcfile rc.sh -i | cwd=/w", "runs sh file rc.sh",
			"redirect read stdin run.sh", `sh | cwd=/w stdin="the file run.sh"`, "runs sh file run.sh",
			"curl x | cwd=/w", `sh | cwd=/w stdin="the output of curl" from="curl x"`, "sh runs the output of curl",
			"echo cd /x | cwd=/w", `bash | cwd=/w stdin="the output of echo" from="echo 'cd /x'"`, "bash runs the output of echo",
			"source env.sh | cwd=/w", "reads env.sh", "runs sh file env.sh",
			`bash -s a | cwd=/w stdin="a here-string" text="rm $1"`, "rm a | cwd=/w"}},
		{"declare -x A=1 B", []string{"assign A=1", "rebound declare B", "assign B=$B"}},
		{`echo "`, []string{"refused: the command does not parse as a shell script: 1:6: reached EOF without closing quote `\"`"}},
		{strings.Repeat("$(", 30) + "x" + strings.Repeat(")", 30), []string{"refused: the command nests substitutions more than 24 levels deep"}},
	}
	for _, c := range cases {
		r := &recorder{}
		r.w = &Walker{Expander: Expander{Tools: r, Env: Env{Home: "/home/agent", Cwd: "/w", Root: "/w"}}, Families: r}
		r.w.Script(c.script, NewState("/w"), nil)
		if !slices.Equal(r.got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.script, r.got, c.want)
		}
		if r.done != 1 && !r.w.Aborted() && !strings.HasPrefix(c.want[0], "refused: the command does not parse") {
			t.Errorf("%s: Walked called %d times, want once", c.script, r.done)
		}
	}
}

// TestParseShell pins how a shell's arguments split into its options and
// what it runs: the script of -c, -s's positional parameters, errexit,
// the start-up files of --rcfile, and the first non-option ending them.
func TestParseShell(t *testing.T) {
	cases := []struct {
		args                   string
		command, stdin, errexi bool
		rc, rest               []string
	}{
		{"-c x", true, false, false, nil, []string{"x"}},
		{"-ec x name a", true, false, true, nil, []string{"x", "name", "a"}},
		{"-o errexit -c x", true, false, true, nil, []string{"x"}},
		{"--norc --rcfile r.sh -i", false, false, false, []string{"r.sh"}, nil},
		{"-s a b", false, true, false, nil, []string{"a", "b"}},
		{"script.sh -c", false, false, false, nil, []string{"script.sh", "-c"}},
		{"-- -c", false, false, false, nil, []string{"-c"}},
		{"-xyz", false, false, false, nil, []string{"-xyz"}},
	}
	for _, c := range cases {
		got := ParseShell(words(strings.Fields(c.args)...))
		if got.Command != c.command || got.Stdin != c.stdin || got.Errexit != c.errexi ||
			!slices.Equal(texts(got.RCFiles), c.rc) || !slices.Equal(texts(got.Rest), c.rest) {
			t.Errorf("sh %s: %+v", c.args, got)
		}
	}
}

// TestPrinted pins what echo and printf print, as what a pipe or file
// gets: escapes as bash processes them, and text only known at run time.
func TestPrinted(t *testing.T) {
	dyn := Word{Dynamic: true, Src: "$x"}
	cases := []struct {
		name string
		args []Word
		text string
		dyn  bool
	}{
		{"echo", words("a", "b"), "a b\n", false},
		{"echo", words("-e", `a\tb\x41\0101`), "a\tbAA\n", false},
		{"printf", words(`%s\n`, "rm -rf ~"), "rm -rf ~\n", false},
		{"printf", words("--", `\u00e9`), "é", false},
		{"printf", []Word{{Text: "%s"}, dyn}, "", true},
		{"echo", []Word{{Text: "a"}, dyn}, "", true},
	}
	for _, c := range cases {
		in := Printed(c.name, c.args)
		if in.Text != c.text || in.Dynamic != c.dyn {
			t.Errorf("%s %q: %q dynamic %v, want %q %v", c.name, texts(c.args), in.Text, in.Dynamic, c.text, c.dyn)
		}
	}
}
