package shell

import (
	"slices"

	"mvdan.cc/sh/v3/syntax"
)

// State is what the analysis knows while walking a script: the possible
// working directories, variable values, functions and git aliases.
type State struct {
	Cwds       []string // possible working directories
	CwdUnknown bool     // the working directory may be one we cannot tell
	Vars       map[string][]Word
	Arrays     map[string][]Word // indexed arrays with known elements, in order
	Funcs      map[string]*syntax.FuncDecl
	GitAliases map[string]string
	Aliases    map[string]string // shell aliases defined in this command
	Positional []Word            // $1, $2, ...
	PosUnknown bool              // positional parameters are not known
	Strong     bool              // assignments replace earlier values (false in conditional code)
	Errexit    bool              // set -e: a failing command ends the script
	Remote     bool              // a script that runs on another machine (ssh, docker exec)
	InFunc     map[string]bool
}

// NewState is the state of a fresh shell started in cwd: nothing assigned,
// no functions or aliases, assignments take effect.
func NewState(cwd string) *State {
	return &State{
		Cwds:       []string{cwd},
		Vars:       map[string][]Word{},
		Arrays:     map[string][]Word{},
		Funcs:      map[string]*syntax.FuncDecl{},
		GitAliases: map[string]string{},
		Aliases:    map[string]string{},
		Strong:     true,
		InFunc:     map[string]bool{},
	}
}

// Clone returns a copy of s whose maps and slices can change without
// changing s.
func (s *State) Clone() *State {
	c := *s
	c.Cwds = slices.Clone(s.Cwds)
	c.Vars = make(map[string][]Word, len(s.Vars))
	for k, v := range s.Vars {
		c.Vars[k] = v
	}
	c.Arrays = make(map[string][]Word, len(s.Arrays))
	for k, v := range s.Arrays {
		c.Arrays[k] = v
	}
	c.Funcs = make(map[string]*syntax.FuncDecl, len(s.Funcs))
	for k, v := range s.Funcs {
		c.Funcs[k] = v
	}
	c.GitAliases = make(map[string]string, len(s.GitAliases))
	for k, v := range s.GitAliases {
		c.GitAliases[k] = v
	}
	c.Aliases = make(map[string]string, len(s.Aliases))
	for k, v := range s.Aliases {
		c.Aliases[k] = v
	}
	c.InFunc = make(map[string]bool, len(s.InFunc))
	for k, v := range s.InFunc {
		c.InFunc[k] = v
	}
	return &c
}

// Weak returns a clone for code that may or may not run (a branch, a loop
// body): what it assigns is added to what was known, never replaces it.
func (s *State) Weak() *State {
	c := s.Clone()
	c.Strong = false
	return c
}

// Merge adds what o knows to s: the union of working directories and of
// variable values. Used after conditional code ran on a weak clone.
func (s *State) Merge(o *State) {
	s.SetCwds(append(slices.Clone(s.Cwds), o.Cwds...), s.CwdUnknown || o.CwdUnknown)
	for k, v := range o.Vars {
		s.Vars[k] = UnionWords(s.Vars[k], v)
	}
	for k, v := range o.Arrays {
		if old, ok := s.Arrays[k]; !ok || !slices.EqualFunc(old, v, func(x, y Word) bool { return x.Text == y.Text && x.Dynamic == y.Dynamic }) {
			delete(s.Arrays, k) // differs between branches: unknown
		}
	}
	for k, v := range o.Funcs {
		s.Funcs[k] = v
	}
	for k, v := range o.GitAliases {
		s.GitAliases[k] = v
	}
	for k, v := range o.Aliases {
		s.Aliases[k] = v
	}
}

// SetCwds sets the possible working directories, sorted and without
// duplicates; more than 8 make the working directory unknown.
func (s *State) SetCwds(cwds []string, unknown bool) {
	slices.Sort(cwds)
	cwds = slices.Compact(cwds)
	if len(cwds) > 8 {
		cwds, unknown = nil, true
	}
	s.Cwds, s.CwdUnknown = cwds, unknown
}

// Assign sets a shell variable, replacing or (in conditional code) adding
// to what was known.
func (s *State) Assign(name string, val []Word) {
	if !s.Strong {
		if old, ok := s.Vars[name]; ok {
			val = UnionWords(old, val)
		} else {
			val = UnionWords([]Word{{Dynamic: true, Src: "$" + name}}, val)
		}
	}
	s.Vars[name] = val
}

// UnionWords is a followed by the words of b it does not hold yet (same
// text, dynamic and glob); more than MaxAlternatives make one unknown word.
func UnionWords(a, b []Word) []Word {
	out := slices.Clone(a)
	for _, x := range b {
		dup := false
		for _, y := range out {
			if y.Text == x.Text && y.Dynamic == x.Dynamic && y.Glob == x.Glob {
				dup = true
				break
			}
		}
		if !dup {
			out = append(out, x)
		}
	}
	if len(out) > MaxAlternatives {
		return []Word{{Dynamic: true}}
	}
	return out
}

// FirstCwd is the first possible working directory, or def when none is
// known.
func (s *State) FirstCwd(def string) string {
	if len(s.Cwds) > 0 {
		return s.Cwds[0]
	}
	return def
}

// PositionalAll is "$@": the positional parameters.
func (s *State) PositionalAll() []Word { return s.Positional }
