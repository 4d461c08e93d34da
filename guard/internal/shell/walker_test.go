package shell

import (
	"reflect"
	"strings"
	"testing"
)

func cmd(st *State, line string, guarded bool, via ...string) *Invocation {
	argv := words(strings.Fields(line)...)
	return &Invocation{Name: argv[0].Text, Argv: argv, State: st, Guarded: guarded, Via: via}
}

// TestCd pins where the shell may be after cd and its kin: a cd that may
// fail keeps the old directory possible, CDPATH adds candidates, symlinks
// resolve through Env.Resolve, and what cannot be known is unknown.
func TestCd(t *testing.T) {
	w := &Walker{Expander: Expander{Env: Env{Home: "/home/agent", Resolve: func(p string) string {
		return strings.Replace(p, "/w/link", "/real", 1)
	}}}}
	cases := []struct {
		line    string
		guarded bool
		via     []string
		cdpath  string
		want    []string
		unknown bool
	}{
		{"cd sub", true, nil, "", []string{"/w/sub"}, false},
		{"cd sub", false, nil, "", []string{"/w", "/w/sub"}, false},
		{"cd", true, nil, "", []string{"/home/agent"}, false},
		{"cd ../x", true, nil, "", []string{"/x"}, false},
		{"cd link/a", true, nil, "", []string{"/real/a"}, false},
		{"cd $X", true, nil, "", nil, true},
		{"cd -", true, nil, "", nil, true},
		{"pushd +1", true, nil, "", nil, true},
		{"popd", true, nil, "", nil, true},
		{"cd sub", true, []string{"sudo"}, "", []string{"/w"}, false},
		{"cd sub", true, []string{"command"}, "", []string{"/w/sub"}, false},
		{"cd sub", true, nil, "/opt:/srv", []string{"/opt/sub", "/srv/sub", "/w/sub"}, false},
	}
	for _, c := range cases {
		st := NewState("/w")
		if c.cdpath != "" {
			st.Vars["CDPATH"] = []Word{{Text: c.cdpath}}
		}
		w.Cd(cmd(st, c.line, c.guarded, c.via...))
		if !reflect.DeepEqual(st.Cwds, c.want) || st.CwdUnknown != c.unknown {
			t.Errorf("%s (guarded %v, via %v, CDPATH %q): cwds %q unknown %v, want %q %v",
				c.line, c.guarded, c.via, c.cdpath, st.Cwds, st.CwdUnknown, c.want, c.unknown)
		}
	}
}

func TestSetShift(t *testing.T) {
	st := NewState("/w")
	Set(cmd(st, "set -e -- a b c", false))
	if !st.Errexit || !reflect.DeepEqual(texts(st.Positional), []string{"a", "b", "c"}) || st.PosUnknown {
		t.Fatalf("set -e -- a b c: errexit %v positional %q", st.Errexit, texts(st.Positional))
	}
	Shift(cmd(st, "shift 2", false))
	if !reflect.DeepEqual(texts(st.Positional), []string{"c"}) {
		t.Errorf("shift 2: %q", texts(st.Positional))
	}
	Shift(cmd(st, "shift 5", false))
	if len(st.Positional) != 0 || st.PosUnknown {
		t.Errorf("shift past the end: %q unknown %v", texts(st.Positional), st.PosUnknown)
	}
	Set(cmd(st, "set +e", false))
	Set(cmd(st, "set -o errexit", false))
	if !st.Errexit {
		t.Error("set -o errexit")
	}
	Shift(cmd(st, "shift $X", false))
	if !st.PosUnknown {
		t.Error("shift $X: positional parameters unknown")
	}
}

func TestWithCwdJoinName(t *testing.T) {
	w := &Walker{Expander: Expander{Env: Env{Resolve: func(p string) string { return strings.Replace(p, "/w/link", "/real", 1) }}}}
	st := NewState("/w")
	st.SetCwds([]string{"/w", "/w/sub"}, false)
	inv := &Invocation{Name: "env", State: st}
	n := w.WithCwd(inv, Word{Text: "link"})
	if !reflect.DeepEqual(n.State.Cwds, []string{"/real", "/w/sub/link"}) || n.State.CwdUnknown {
		t.Errorf("env -C link: %q unknown %v", n.State.Cwds, n.State.CwdUnknown)
	}
	if !reflect.DeepEqual(st.Cwds, []string{"/w", "/w/sub"}) {
		t.Errorf("WithCwd changed the caller's state: %q", st.Cwds)
	}
	if n := w.WithCwd(inv, Word{Dynamic: true}); n.State.Cwds != nil || !n.State.CwdUnknown {
		t.Errorf("env -C $d: %q, want unknown", n.State.Cwds)
	}
	j := JoinWords([]Word{{Text: "ls", Src: "ls"}, {Dynamic: true, Src: "$d"}})
	if j.Template() != "ls "+UnknownMark || !j.Dynamic || j.Src != "ls $d" {
		t.Errorf("JoinWords: %+v", j)
	}
	for s, want := range map[string]bool{"PATH": true, "_x1": true, "1x": false, "": false, "a-b": false} {
		if IsName(s) != want {
			t.Errorf("IsName(%q) = %v", s, !want)
		}
	}
}
