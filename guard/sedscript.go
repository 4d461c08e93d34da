package guard

import "strings"

// sedEffects is what a sed script does besides editing text.
type sedEffects struct {
	execs    []string // commands GNU sed runs: "e command"
	execLine bool     // s///e or a bare "e": runs (part of) the input as a command
	writes   []string // files written with w/W commands or the w flag
	reads    []string // files read with r/R
}

// parseSed scans a sed script for the commands that reach outside the
// text: e (execute), the e and w flags of s, w/W (write), r/R (read).
func parseSed(script string) sedEffects {
	var fx sedEffects
	i := 0
	n := len(script)
	skipBlanks := func() {
		for i < n && (script[i] == ' ' || script[i] == '\t' || script[i] == ';' || script[i] == '\n' || script[i] == '{' || script[i] == '}') {
			i++
		}
	}
	restOfLine := func() string {
		start := i
		for i < n && script[i] != '\n' {
			i++
		}
		return strings.TrimSpace(script[start:i])
	}
	skipRegex := func(delim byte) {
		for i < n && script[i] != delim {
			if script[i] == '\\' {
				i++
			}
			i++
		}
		i = min(i+1, n) // the closing delimiter, if the script has one
	}
	for i < n {
		skipBlanks()
		if i >= n {
			break
		}
		// Addresses: 1, $, /re/, \cREc, first~step, addr1,addr2, and !.
		for i < n {
			c := script[i]
			switch {
			case c >= '0' && c <= '9' || c == '$' || c == '~' || c == ',' || c == '+' || c == ' ':
				i++
				continue
			case c == '/':
				i++
				skipRegex('/')
				continue
			case c == '\\' && i+1 < n:
				d := script[i+1]
				i += 2
				skipRegex(d)
				continue
			case c == '!':
				i++
				continue
			}
			break
		}
		if i >= n {
			break
		}
		cmd := script[i]
		i++
		switch cmd {
		case '#', ':', 'b', 't', 'T', 'a', 'i', 'c', 'l', 'L', 'q', 'Q', 'v':
			restOfLine()
		case 'e':
			if c := restOfLine(); c != "" {
				fx.execs = append(fx.execs, c)
			} else {
				fx.execLine = true // e alone runs the pattern space
			}
		case 'w', 'W':
			if f := restOfLine(); f != "" {
				fx.writes = append(fx.writes, f)
			}
		case 'r', 'R':
			if f := restOfLine(); f != "" {
				fx.reads = append(fx.reads, f)
			}
		case 's', 'y':
			if i >= n {
				break
			}
			delim := script[i]
			i++
			skipRegex(delim)
			start := i
			skipRegex(delim)
			repl := script[start:max(start, i-1)]
			if cmd == 'y' {
				break
			}
			// Flags: g, p, i, I, m, M, e, w FILE, digits.
			for i < n && script[i] != ';' && script[i] != '\n' && script[i] != '}' {
				switch script[i] {
				case 'e':
					fx.execLine = true
					if repl != "" && !strings.ContainsAny(repl, `&\`) {
						fx.execs = append(fx.execs, repl)
					}
				case 'w':
					i++
					if f := restOfLine(); f != "" {
						fx.writes = append(fx.writes, f)
					}
					continue
				}
				i++
			}
		}
	}
	return fx
}
