package guard

import "strings"

// optSpec describes a command's options well enough to split them from
// operands: which short and long options take a value.
type optSpec struct {
	short      string          // short options that take a value, e.g. "ou"
	long       map[string]bool // long options (without "--") that take a value
	optionalLS map[string]bool // long options whose value is optional and must be attached (--opt=value)
	// optionalShort are short options whose value is optional and must be
	// attached (GNU xargs -i[R], -l[N], -e[EOF]): -i rm never takes rm.
	optionalShort string
	// stop makes the first operand end option parsing, as POSIX getopt
	// does: everything after it belongs to the wrapped command.
	stop bool
}

// opt is one parsed option.
type opt struct {
	name     string // "f" for -f, "force" for --force
	long     bool
	value    arg
	hasValue bool
}

// parsed is a command line split into options and operands.
type parsed struct {
	opts     []opt
	operands []arg
	rest     []arg // with stop: the operand that stopped parsing and everything after it
	dashdash bool  // "--" was seen
}

func (p parsed) has(names ...string) bool {
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n {
				return true
			}
		}
	}
	return false
}

func (p parsed) value(names ...string) (arg, bool) {
	for i := len(p.opts) - 1; i >= 0; i-- {
		o := p.opts[i]
		for _, n := range names {
			if o.name == n && o.hasValue {
				return o.value, true
			}
		}
	}
	return arg{}, false
}

func (p parsed) values(names ...string) []arg {
	var out []arg
	for _, o := range p.opts {
		for _, n := range names {
			if o.name == n && o.hasValue {
				out = append(out, o.value)
			}
		}
	}
	return out
}

// dynamicOption reports whether an argument that may hold options is only
// known at run time.
func (p parsed) dynamicOption() bool {
	for _, o := range p.opts {
		if o.name == "?" {
			return true
		}
	}
	return false
}

// parseOpts splits args by spec. A dynamic argument in option position is
// recorded as the option "?" (it could be any option) and as an operand.
func parseOpts(args []arg, spec optSpec) parsed {
	var p parsed
	for i := 0; i < len(args); i++ {
		x := args[i]
		if p.dashdash {
			p.operands = append(p.operands, x)
			continue
		}
		if x.dynamic && !mayBeOption(x) {
			// HEAD:$branch: unknown, but an operand, not an option.
			if spec.stop {
				p.rest = args[i:]
				return p
			}
			p.operands = append(p.operands, x)
			continue
		}
		if x.dynamic && mayBeOption(x) || x.glob && strings.HasPrefix(x.s, "-") && strings.ContainsAny(strings.SplitN(x.s, "=", 2)[0], "*?[") {
			// An unknown word, or a pattern that may expand to options, may
			// be any option, or the command that follows them.
			p.opts = append(p.opts, opt{name: "?", value: x})
			if spec.stop {
				p.rest = args[i:]
				return p
			}
			p.operands = append(p.operands, x)
			continue
		}
		s := x.s
		switch {
		case s == "--":
			p.dashdash = true
			if spec.stop {
				p.rest = args[i+1:]
				return p
			}
		case strings.HasPrefix(s, "--"):
			name, val, eq := strings.Cut(s[2:], "=")
			o := opt{name: name, long: true}
			if eq {
				o.value, o.hasValue = arg{s: val, src: x.src}, true
			} else if spec.long[name] && !spec.optionalLS[name] && i+1 < len(args) {
				i++
				o.value, o.hasValue = args[i], true
			}
			p.opts = append(p.opts, o)
		case len(s) > 1 && s[0] == '-':
			for j := 1; j < len(s); j++ {
				c := s[j : j+1]
				if strings.Contains(spec.optionalShort, c) {
					o := opt{name: c}
					if j+1 < len(s) {
						o.value, o.hasValue = arg{s: s[j+1:], src: x.src}, true
					}
					p.opts = append(p.opts, o)
					break
				}
				if strings.Contains(spec.short, c) {
					o := opt{name: c, hasValue: true}
					if j+1 < len(s) {
						o.value = arg{s: s[j+1:], src: x.src}
					} else if i+1 < len(args) {
						i++
						o.value = args[i]
					} else {
						o.hasValue = false
					}
					p.opts = append(p.opts, o)
					break
				}
				p.opts = append(p.opts, opt{name: c})
			}
		default:
			if spec.stop {
				p.rest = args[i:]
				return p
			}
			p.operands = append(p.operands, x)
		}
	}
	return p
}

// mayBeOption reports whether an unknown word can expand to an option: it
// can unless it starts with known text other than "-" (HEAD:$branch).
func mayBeOption(x arg) bool {
	t := x.template()
	return t == "" || strings.HasPrefix(t, unknownMark) || strings.HasPrefix(t, "-")
}

func longs(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}
