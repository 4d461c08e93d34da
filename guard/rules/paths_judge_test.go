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

func outside(what string) effect.Place { return effect.Place{Kind: effect.Outside, What: what} }

func foreign(what string) effect.Place {
	return effect.Place{Kind: effect.Outside, What: what, Foreign: true}
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
		{"inside", effect.Delete{Target: rm("/w/build", effect.Place{})}, nil, "", ""},
		{"temp dir", effect.Delete{Target: rm("/tmp/x", effect.Place{Kind: effect.Writable}), Recursive: true}, nil, "", ""},
		{"device", effect.Delete{Target: rm("/dev/null", effect.Place{Kind: effect.Sink})}, nil, "", ""},
		{"home", effect.Delete{Target: rm("/h", outside("/h, outside the worktree /w")), Recursive: true},
			[]string{"delete-outside-worktree"}, "rm deletes /h, outside the worktree /w", "delete only inside the worktree"},
		{"a tool's cache", effect.Delete{Target: rm("/h/.npm/_cacache", outside("/h/.npm/_cacache, outside the worktree /w"))},
			[]string{"delete-outside-worktree"}, "rm deletes /h/.npm", "npm cache clean --force"},
		{"GOCACHE", effect.Delete{Target: rm("/gocache/00", outside("/gocache/00, outside the worktree /w"))},
			[]string{"delete-outside-worktree"}, "/gocache/00", "go clean -cache"},
		{"a glob outside gets no cache advice", effect.Delete{Target: effect.Target{Tool: "rm", Path: "/h/.npm/*", Glob: true, Place: outside("/h/.npm/*, outside the worktree /w")}},
			[]string{"delete-outside-worktree"}, "rm deletes /h/.npm/*", "delete only inside the worktree"},
		{"run time", effect.Delete{Target: effect.Target{Tool: "rm", Shown: "`$d`", Dynamic: true}},
			[]string{"delete-outside-worktree"}, "rm deletes `$d`, a path only known at run time", "name the path literally"},
		{"another machine", effect.Delete{Target: effect.Target{Tool: "rm", Shown: "`/srv`", Remote: true}},
			[]string{"delete-outside-worktree"}, "rm deletes `/srv` on another machine", "delete only inside"},
		{"recursive over a git dir", effect.Delete{Target: rm("/w/sub", effect.Place{}), Recursive: true, Contains: "/w/sub/.git"},
			[]string{"delete-outside-worktree"}, "rm recursively deletes /w/sub, which contains /w/sub/.git", "delete only inside"},
		{"another worktree", effect.Delete{Target: rm("/w2/src", foreign("/w2/src, inside another agent's worktree /w2")), Recursive: true},
			[]string{"foreign-worktree"}, "rm deletes /w2/src, inside another agent's worktree /w2", "in your own worktree /w ("},
	})
}
