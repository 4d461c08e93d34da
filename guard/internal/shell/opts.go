package shell

import "strings"

// Spec describes a command's options well enough to split them from
// operands: which short and long options take a value.
type Spec struct {
	Short        string          // short options that take a value, e.g. "ou"
	Long         map[string]bool // long options (without "--") that take a value
	OptionalLong map[string]bool // long options whose value is optional and must be attached (--opt=value)
	// OptionalShort are short options whose value is optional and must be
	// attached (GNU xargs -i[R], -l[N], -e[EOF]): -i rm never takes rm.
	OptionalShort string
	// Stop makes the first operand end option parsing, as POSIX getopt
	// does: everything after it belongs to the wrapped command.
	Stop bool
}

// Opt is one parsed option.
type Opt struct {
	Name     string // "f" for -f, "force" for --force
	Long     bool
	Value    Word
	HasValue bool
}

// Parsed is a command line split into options and operands.
type Parsed struct {
	Opts     []Opt
	Operands []Word
	Rest     []Word // with stop: the operand that stopped parsing and everything after it
	DashDash bool   // "--" was seen
}

func (p Parsed) Has(names ...string) bool {
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n {
				return true
			}
		}
	}
	return false
}

func (p Parsed) Value(names ...string) (Word, bool) {
	for i := len(p.Opts) - 1; i >= 0; i-- {
		o := p.Opts[i]
		for _, n := range names {
			if o.Name == n && o.HasValue {
				return o.Value, true
			}
		}
	}
	return Word{}, false
}

func (p Parsed) Values(names ...string) []Word {
	var out []Word
	for _, o := range p.Opts {
		for _, n := range names {
			if o.Name == n && o.HasValue {
				out = append(out, o.Value)
			}
		}
	}
	return out
}

// DynamicOption reports whether an argument that may hold options is only
// known at run time.
func (p Parsed) DynamicOption() bool {
	for _, o := range p.Opts {
		if o.Name == "?" {
			return true
		}
	}
	return false
}

// ParseOpts splits args by spec. A dynamic argument in option position is
// recorded as the option "?" (it could be any option) and as an operand.
func ParseOpts(args []Word, spec Spec) Parsed {
	var p Parsed
	for i := 0; i < len(args); i++ {
		x := args[i]
		if p.DashDash {
			p.Operands = append(p.Operands, x)
			continue
		}
		if x.Dynamic && !MayBeOption(x) {
			// HEAD:$branch: unknown, but an operand, not an option.
			if spec.Stop {
				p.Rest = args[i:]
				return p
			}
			p.Operands = append(p.Operands, x)
			continue
		}
		if x.Dynamic && MayBeOption(x) || x.Glob && strings.HasPrefix(x.Text, "-") && strings.ContainsAny(strings.SplitN(x.Text, "=", 2)[0], "*?[") {
			// An unknown word, or a pattern that may expand to options, may
			// be any option, or the command that follows them.
			p.Opts = append(p.Opts, Opt{Name: "?", Value: x})
			if spec.Stop {
				p.Rest = args[i:]
				return p
			}
			p.Operands = append(p.Operands, x)
			continue
		}
		s := x.Text
		switch {
		case s == "--":
			p.DashDash = true
			if spec.Stop {
				p.Rest = args[i+1:]
				return p
			}
		case strings.HasPrefix(s, "--"):
			name, val, eq := strings.Cut(s[2:], "=")
			o := Opt{Name: name, Long: true}
			if eq {
				o.Value, o.HasValue = Word{Text: val, Src: x.Src}, true
			} else if spec.Long[name] && !spec.OptionalLong[name] && i+1 < len(args) {
				i++
				o.Value, o.HasValue = args[i], true
			}
			p.Opts = append(p.Opts, o)
		case len(s) > 1 && s[0] == '-':
			for j := 1; j < len(s); j++ {
				c := s[j : j+1]
				if strings.Contains(spec.OptionalShort, c) {
					o := Opt{Name: c}
					if j+1 < len(s) {
						o.Value, o.HasValue = Word{Text: s[j+1:], Src: x.Src}, true
					}
					p.Opts = append(p.Opts, o)
					break
				}
				if strings.Contains(spec.Short, c) {
					o := Opt{Name: c, HasValue: true}
					if j+1 < len(s) {
						o.Value = Word{Text: s[j+1:], Src: x.Src}
					} else if i+1 < len(args) {
						i++
						o.Value = args[i]
					} else {
						o.HasValue = false
					}
					p.Opts = append(p.Opts, o)
					break
				}
				p.Opts = append(p.Opts, Opt{Name: c})
			}
		default:
			if spec.Stop {
				p.Rest = args[i:]
				return p
			}
			p.Operands = append(p.Operands, x)
		}
	}
	return p
}

// MayBeOption reports whether an unknown word can expand to an option: it
// can unless it starts with known text other than "-" (HEAD:$branch).
func MayBeOption(x Word) bool {
	t := x.Template()
	return t == "" || strings.HasPrefix(t, UnknownMark) || strings.HasPrefix(t, "-")
}

func Longs(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
