package rules

import (
	"reflect"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// pathFacts is the setting of the path judges' tables: the worktree /w,
// the home /h, the temp dir /tmp.
var pathFacts = &Facts{Root: "/w", Home: "/h", Temp: "/tmp", GoCache: "/gocache"}

// outside is the place of p outside the worktree /w.
func outside(p string) effect.Place {
	return effect.Place{Kind: effect.Outside, Where: effect.Elsewhere, Path: p, Dir: "/w"}
}

// foreign is the place of p inside another agent's worktree, w.
func foreign(p, w string) effect.Place {
	return effect.Place{Kind: effect.Outside, Where: effect.OtherWorktree, Path: p, Dir: w}
}

type judgeCase struct {
	name    string
	e       effect.Effect
	rules   []string // the rule ids of the verdicts, in order
	reason  string   // a fragment of the first verdict's reason
	instead string   // a fragment of the first verdict's Instead
}

func runJudgeCases(t *testing.T, cases []judgeCase) {
	t.Helper()
	for _, c := range cases {
		vs := JudgeEffect(c.e, pathFacts)
		var got []string
		for _, v := range vs {
			got = append(got, v.Rule)
		}
		if !reflect.DeepEqual(got, c.rules) {
			t.Errorf("%s: rules %v, want %v (%+v)", c.name, got, c.rules, vs)
			continue
		}
		if len(vs) == 0 {
			continue
		}
		if !strings.Contains(vs[0].Reason, c.reason) {
			t.Errorf("%s: reason %q, want it to contain %q", c.name, vs[0].Reason, c.reason)
		}
		if vs[0].Instead == "" || !strings.Contains(vs[0].Instead, c.instead) {
			t.Errorf("%s: instead %q, want it to contain %q", c.name, vs[0].Instead, c.instead)
		}
	}
}

func TestJudgeDelete(t *testing.T) {
	rm := func(p string, pl effect.Place) effect.Target { return effect.Target{Tool: "rm", Path: p, Place: pl} }
	runJudgeCases(t, []judgeCase{
		{"inside", effect.Delete{Target: rm("/w/build", effect.Place{Kind: effect.Inside})}, nil, "", ""},
		{"temp dir", effect.Delete{Target: rm("/tmp/x", effect.Place{Kind: effect.Writable}), Recursive: true}, nil, "", ""},
		{"device", effect.Delete{Target: rm("/dev/null", effect.Place{Kind: effect.Sink})}, nil, "", ""},
		{"home", effect.Delete{Target: rm("/h", outside("/h")), Recursive: true},
			[]string{"delete-outside-worktree"}, "rm deletes /h, outside the worktree /w", "delete only inside the worktree"},
		{"a tool's cache", effect.Delete{Target: rm("/h/.npm/_cacache", outside("/h/.npm/_cacache"))},
			[]string{"delete-outside-worktree"}, "rm deletes /h/.npm", "npm cache clean --force"},
		{"GOCACHE", effect.Delete{Target: rm("/gocache/00", outside("/gocache/00"))},
			[]string{"delete-outside-worktree"}, "/gocache/00", "go clean -cache"},
		{"a glob outside gets no cache advice", effect.Delete{Target: effect.Target{Tool: "rm", Path: "/h/.npm/*", Glob: true, Place: outside("/h/.npm/*")}},
			[]string{"delete-outside-worktree"}, "rm deletes /h/.npm/*", "delete only inside the worktree"},
		{"run time", effect.Delete{Target: effect.Target{Tool: "rm", Shown: "`$d`", Dynamic: true}},
			[]string{"delete-outside-worktree"}, "rm deletes `$d`, a path only known at run time", "name the path literally"},
		{"code's value only known at run time", effect.Delete{Target: effect.Target{Tool: "python code", Dynamic: true}, Recursive: true},
			[]string{"delete-outside-worktree"}, "python code deletes a path only known at run time", "or with rm in the shell"},
		{"code moving a value away", effect.Delete{Target: effect.Target{Tool: "node code", Dynamic: true}, Verb: "node code moves away"},
			[]string{"delete-outside-worktree"}, "node code moves away a path only known at run time", "delete with a literal path"},
		{"find -name reaching into the git dir", effect.Delete{Target: rm("/w/.git/index", effect.Place{Kind: effect.Outside, Where: effect.GitDir, Path: "/w/.git/index"}), Verb: "find -delete with -name index can delete", Recursive: true},
			[]string{"delete-outside-worktree"}, "find -delete with -name index can delete /w/.git/index inside the repository's git directory", "delete only inside"},
		{"another machine", effect.Delete{Target: effect.Target{Tool: "rm", Shown: "`/srv`", Remote: true}},
			[]string{"delete-outside-worktree"}, "rm deletes `/srv` on another machine", "delete only inside"},
		{"recursive over a git dir", effect.Delete{Target: rm("/w/sub", effect.Place{Kind: effect.Inside}), Recursive: true, Contains: "/w/sub/.git"},
			[]string{"delete-outside-worktree"}, "rm recursively deletes /w/sub, which contains /w/sub/.git", "delete only inside"},
		{"another worktree", effect.Delete{Target: rm("/w2/src", foreign("/w2/src", "/w2")), Recursive: true},
			[]string{"foreign-worktree"}, "rm deletes /w2/src, inside another agent's worktree /w2", "in your own worktree /w ("},
	})
}

func TestJudgeWrite(t *testing.T) {
	w := func(verb, p string, pl effect.Place) effect.Write {
		return effect.Write{Target: effect.Target{Tool: "tee", Path: p, Place: pl}, Verb: verb}
	}
	tamper := w("writing", "/h/.claude/settings.json", outside("/h/.claude/settings.json"))
	tamper.Protected = "/h/.claude/settings.json"
	foreignTamper := w("tee writes", "/w2/.git/hooks/x", foreign("/w2/.git/hooks/x", "/w2"))
	foreignTamper.Protected = "/w2/.git/hooks/x"
	runJudgeCases(t, []judgeCase{
		{"inside", w("tee writes", "/w/x", effect.Place{Kind: effect.Inside}), nil, "", ""},
		{"tar -P: paths from the archive", effect.Write{Target: effect.Target{Tool: "tar"}, Verb: "tar -P extracts members to", Anywhere: true},
			[]string{"write-outside-worktree"}, "tar -P extracts members to their absolute paths, which may be anywhere", "write only inside the worktree"},
		{"git worktree prune", effect.PruneWorktrees{}, []string{"foreign-worktree"}, "git worktree prune deletes the records of every worktree whose directory is missing, other agents' included",
			"leave pruning to a human; git worktree remove <path> removes a worktree of your own, git worktree prune -n shows what would go"},
		{"temp dir", w("tee writes", "/tmp/x", effect.Place{Kind: effect.Writable}), nil, "", ""},
		{"device", w("tee writes", "/dev/null", effect.Place{Kind: effect.Sink}), nil, "", ""},
		{"home", w("tee writes", "/h/.bashrc", outside("/h/.bashrc")),
			[]string{"write-outside-worktree"}, "tee writes /h/.bashrc, outside the worktree /w", "write only inside the worktree"},
		{"the Write tool", w("writing", "/etc/hosts", outside("/etc/hosts")),
			[]string{"write-outside-worktree"}, "writing /etc/hosts, outside", "write only inside"},
		{"the guard's configuration is guard-tamper's", tamper, nil, "", ""},
		{"so in another worktree too", foreignTamper, nil, "", ""},
		{"run time", effect.Write{Target: effect.Target{Tool: "tee", Shown: "`$f`", Dynamic: true}, Verb: "tee writes"},
			[]string{"write-outside-worktree"}, "tee writes `$f`, a path only known at run time", "name the path literally"},
		{"another machine", effect.Write{Target: effect.Target{Tool: "scp", Shown: "`h:/x`", Remote: true}, Verb: "scp writes to"},
			[]string{"write-outside-worktree"}, "scp writes to `h:/x` on another machine", "write only inside"},
		{"another worktree", w("tee writes", "/w2/x", foreign("/w2/x", "/w2")),
			[]string{"foreign-worktree"}, "tee writes /w2/x, inside another agent's worktree /w2", "in your own worktree /w ("},
		{"chmod -R over a git dir", effect.Write{Target: effect.Target{Tool: "chmod", Path: "/w/sub", Place: effect.Place{Kind: effect.Inside}}, Verb: "chmod changes", Recursive: true, Contains: "/w/sub/.git"},
			[]string{"write-outside-worktree"}, "chmod -R changes /w/sub, which contains /w/sub/.git", "write only inside"},
		{"chmod -R of home: outside, and what it contains", effect.Write{Target: effect.Target{Tool: "chmod", Path: "/h", Place: outside("/h")}, Verb: "chmod changes", Recursive: true, Contains: "/h/w/.git"},
			[]string{"write-outside-worktree", "write-outside-worktree"}, "chmod changes /h, outside", "write only inside"},
		{"chmod -R of a plain directory", effect.Write{Target: effect.Target{Tool: "chmod", Path: "/w/build", Place: effect.Place{Kind: effect.Inside}}, Verb: "chmod changes", Recursive: true}, nil, "", ""},
	})
}

func TestJudgeSecretFile(t *testing.T) {
	read := func(verb, p, shown, secret string, glob bool) effect.Read {
		return effect.Read{Target: effect.Target{Tool: "cat", Path: p, Shown: shown, Secret: secret, Glob: glob}, Verb: verb}
	}
	inWorktree := func(e effect.Target) effect.Target { e.Place = effect.Place{Kind: effect.Inside}; return e }
	runJudgeCases(t, []judgeCase{
		{"a plain read", read("cat reads", "/w/README.md", "README.md", "", false), nil, "", ""},
		{"a secret read", read("cat reads", "/w/.env", ".env", "/w/.env", false),
			[]string{"secret-file"}, "cat reads the secret file /w/.env", "use .env.example"},
		{"the Read tool", read("Read of", "/h/.ssh/id_rsa", "~/.ssh/id_rsa", "/h/.ssh/id_rsa", false),
			[]string{"secret-file"}, "Read of the secret file /h/.ssh/id_rsa", "do not read or write secret files"},
		{"a pattern that can match one", read("cat reads", "/w/.env*", ".env*", "/w/.env", true),
			[]string{"secret-file"}, "cat reads .env*, which can match the secret file /w/.env", "use .env.example"},
		{"another process's environment", effect.Read{Target: effect.Target{Tool: "cat", Shown: "/proc/$PPID/environ", Dynamic: true}, Verb: "cat reads", OtherEnviron: true},
			[]string{"secret-file"}, "cat reads /proc/$PPID/environ, the environment of another process", "do not read"},
		{"a tree of secrets", effect.Read{Target: effect.Target{Tool: "tar", Path: "/h/.ssh", Shown: "~/.ssh", Secret: "/h/.ssh"}, Verb: "tar reads", Tree: true},
			[]string{"secret-file"}, "tar reads the directory /h/.ssh, whose files are secret", "do not read"},
		{"a plain tree", effect.Read{Target: effect.Target{Tool: "tar", Path: "/w/src", Shown: "src"}, Verb: "tar reads", Tree: true}, nil, "", ""},
		{"a secret write inside", effect.Write{Target: inWorktree(effect.Target{Tool: "tee", Path: "/w/.env", Secret: "/w/.env"}), Verb: "tee writes"},
			[]string{"secret-file"}, "tee writes the secret file /w/.env", "use .env.example"},
		{"a secret write outside is both", effect.Write{Target: effect.Target{Tool: "tee", Path: "/h/.aws/credentials", Secret: "/h/.aws/credentials", Place: outside("/h/.aws/credentials")}, Verb: "tee writes"},
			[]string{"write-outside-worktree", "secret-file"}, "tee writes /h/.aws/credentials, outside", "write only inside"},
		{"a write pattern", effect.Write{Target: inWorktree(effect.Target{Tool: "cp", Path: "/w/.env*", Glob: true, Secret: "/w/.env"}), Verb: "cp writes to"},
			[]string{"secret-file"}, "cp writes to /w/.env*, which can match the secret file /w/.env", "use .env.example"},
		{"a secret delete", effect.Delete{Target: inWorktree(effect.Target{Tool: "rm", Path: "/w/.env", Secret: "/w/.env"})},
			[]string{"secret-file"}, "rm touches the secret file /w/.env", "use .env.example"},
		{"in another worktree: secret first, then foreign", effect.Write{Target: effect.Target{Tool: "tee", Path: "/w2/.env", Secret: "/w2/.env", Place: foreign("/w2/.env", "/w2")}, Verb: "tee writes"},
			[]string{"secret-file", "foreign-worktree"}, "tee writes the secret file /w2/.env", "use .env.example"},
	})
}

func TestJudgeWorkIn(t *testing.T) {
	f := *pathFacts
	f.OtherWorktrees = []string{"/w/.worktrees/a2", "/main"}
	nested := f
	nested.Root = "/main/.worktrees/a1" // the agent's worktree inside another
	git := func(dirs ...effect.WorkDir) effect.WorkIn { return effect.WorkIn{Tool: "git commit", Dirs: dirs} }
	enter := func(p string) effect.WorkIn {
		return effect.WorkIn{Tool: "EnterWorktree", Dirs: []effect.WorkDir{{Path: p}}, Session: true}
	}
	for _, c := range []struct {
		name   string
		f      *Facts
		e      effect.WorkIn
		rules  []string
		reason string
	}{
		{"own worktree", &f, git(effect.WorkDir{Path: "/w/src"}), nil, ""},
		{"another agent's", &f, git(effect.WorkDir{Path: "/w/.worktrees/a2/src"}), []string{"foreign-worktree"},
			"git commit changes the worktree /w/.worktrees/a2, which is another agent's (this agent's home is /w)"},
		{"the first directory that is foreign decides", &f, git(effect.WorkDir{Path: "/w"}, effect.WorkDir{Path: "/main"}), []string{"foreign-worktree"},
			"changes the worktree /main"},
		{"another clone", &f, git(effect.WorkDir{Path: "/clone", Checkout: "/clone"}), []string{"foreign-worktree"},
			"git commit changes /clone, another checkout of this repository"},
		{"own worktree nested in another", &nested, git(effect.WorkDir{Path: "/main/.worktrees/a1/x"}), nil, ""},
		{"run time, with other worktrees", &f, effect.WorkIn{Tool: "git commit", Dynamic: true}, []string{"foreign-worktree"},
			"git commit runs in a directory only known at run time"},
		{"run time, no other worktrees", pathFacts, effect.WorkIn{Tool: "git commit", Dynamic: true}, nil, ""},
		{"entering another agent's", &f, enter("/w/.worktrees/a2"), []string{"foreign-worktree"},
			"EnterWorktree into /w/.worktrees/a2, another agent's worktree"},
		{"entering one of Claude Code's own", &f, enter("/w/.claude/worktrees/x"), nil, ""},
		{"entering elsewhere", &f, enter("/srv/x"), nil, ""},
	} {
		var got []string
		vs := JudgeEffect(c.e, c.f)
		for _, v := range vs {
			got = append(got, v.Rule)
		}
		if !reflect.DeepEqual(got, c.rules) {
			t.Errorf("%s: rules %v, want %v", c.name, got, c.rules)
			continue
		}
		if len(vs) > 0 && (!strings.Contains(vs[0].Reason, c.reason) || !strings.Contains(vs[0].Instead, c.f.Root)) {
			t.Errorf("%s: %+v, want reason with %q and the home in Instead", c.name, vs[0], c.reason)
		}
	}
}

func TestJudgeSearch(t *testing.T) {
	home := effect.Target{Tool: "Grep", Path: "/h", Place: outside("/h")}
	in := effect.Target{Tool: "Grep", Path: "/w/src", Place: effect.Place{Kind: effect.Inside}}
	glob := home
	glob.Tool = "Glob"
	runJudgeCases(t, []judgeCase{
		{"names that can be secret", effect.Search{Target: effect.Target{Tool: "rg", Path: "/w"}, Names: ".env*", NamesSecret: "/w/.env"},
			[]string{"secret-file"}, "rg searches files matching .env*, which includes the secret file /w/.env", "use .env.example"},
		{"plain names", effect.Search{Target: effect.Target{Tool: "rg", Path: "/w"}, Names: "*.go"}, nil, "", ""},
		{"a credential hunt in home", effect.Search{Target: home, Pattern: "api_key"},
			[]string{"secret-file"}, `Grep for "api_key" in /h, outside the worktree, searches for credentials`, "do not read"},
		{"a credential hunt in the worktree", effect.Search{Target: in, Pattern: "api_key"}, nil, "", ""},
		{"another search in home", effect.Search{Target: home, Pattern: "func main"}, nil, "", ""},
		{"listing key files in home", effect.Search{Target: glob, Pattern: "**/id_ed25519", Listing: true},
			[]string{"secret-file"}, `Glob "**/id_ed25519" in /h, outside the worktree, lists key and credential files`, "do not read"},
		{"listing sources in home", effect.Search{Target: glob, Pattern: "**/*.go", Listing: true}, nil, "", ""},
	})
}

// TestPlaceWords pins how the path rules word each place the tool code
// finds: the classifier gives the facts, these are the words.
func TestPlaceWords(t *testing.T) {
	out := func(w effect.Where, p, dir, pattern string) effect.Place {
		return effect.Place{Kind: effect.Outside, Where: w, Path: p, Dir: dir, Pattern: pattern}
	}
	for _, c := range []struct {
		pl   effect.Place
		want string
	}{
		{outside("/h/x"), "/h/x, outside the worktree /w"},
		{out(effect.OtherMachine, "/srv", "", ""), "/srv on another machine"},
		{out(effect.GitDir, "/w/.git/hooks/x", "/w/.git", ""), "/w/.git/hooks/x, inside the repository's git directory /w/.git"},
		{out(effect.GitDir, "/w/.git/index", "", ""), "/w/.git/index inside the repository's git directory"},
		{foreign("/w2/src", "/w2"), "/w2/src, inside another agent's worktree /w2"},
		{out(effect.WorktreeRoot, "/w", "", ""), "the worktree root /w itself"},
		{out(effect.CanMatch, "", "/w/.git", "/w/.g*"), "/w/.g* can match /w/.git"},
		{out(effect.Elsewhere, "/h", "/w", "/h/*"), "/h/* (in /h, outside the worktree /w)"},
		{out(effect.OtherWorktree, "/w2", "/w2", "/w2/*"), "/w2/* (in /w2, inside another agent's worktree /w2)"},
	} {
		if got := placeWords(c.pl); got != c.want {
			t.Errorf("placeWords(%+v) = %q, want %q", c.pl, got, c.want)
		}
	}
	if !foreign("/w2/x", "/w2").Foreign() || outside("/h").Foreign() || out(effect.CanMatch, "", "/w2", "/*").Foreign() {
		t.Error("Foreign: only a place in another worktree (or checkout) is foreign")
	}
}
