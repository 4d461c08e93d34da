package shell

import "strings"

// Printed is what the shell builtins echo and printf print with args, as
// the Input of whatever reads it: the text when every word is known
// (escapes processed as echo -e and printf do), or text chosen at run
// time.
func Printed(name string, args []Word) *Input {
	if name == "echo" {
		words, escapes := echoWords(args)
		text, ok := joinStatic(words)
		if !ok {
			return &Input{Dynamic: true, Expanded: true, Desc: "the output of echo with expansions"}
		}
		if escapes {
			text = processEscapes(text)
		}
		return &Input{Text: text + "\n", Desc: "echoed text"}
	}
	if len(args) > 0 && args[0].Text == "--" {
		args = args[1:]
	}
	if len(args) == 0 || !args[0].Static() {
		return &Input{Dynamic: true, Expanded: true, Desc: "the output of printf"}
	}
	rest, ok := joinStatic(args[1:])
	if !ok {
		return &Input{Dynamic: true, Expanded: true, Desc: "the output of printf with expansions"}
	}
	text := processEscapes(args[0].Text)
	if rest != "" {
		text = strings.Replace(strings.Replace(text, "%s", rest, 1), "%b", processEscapes(rest), 1)
	}
	return &Input{Text: text, Desc: "printed text"}
}

func echoWords(args []Word) ([]Word, bool) {
	escapes := false
	for len(args) > 0 && args[0].Static() && len(args[0].Text) > 1 && args[0].Text[0] == '-' && strings.Trim(args[0].Text[1:], "neE") == "" {
		if strings.Contains(args[0].Text, "e") {
			escapes = true
		}
		args = args[1:]
	}
	return args, escapes
}

func joinStatic(args []Word) (string, bool) {
	parts := make([]string, len(args))
	for i, x := range args {
		if x.Dynamic {
			return "", false
		}
		parts[i] = x.Text
	}
	return strings.Join(parts, " "), true
}

// processEscapes interprets the backslash escapes of echo -e and printf:
// \n, \t, \xHH, \0NNN and \NNN (octal), \uHHHH, \UHHHHHHHH. Text piped
// to a shell is read the way the shell will see it.
func processEscapes(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r', 'a', 'b', 'f', 'v':
		case 'e', 'E':
			b.WriteByte(0x1b)
		case '\\', '"', '\'':
			b.WriteByte(e)
		case 'x':
			v, n := hexValue(s[i+1:], 2)
			if n == 0 {
				b.WriteString(`\x`)
				continue
			}
			b.WriteByte(byte(v))
			i += n
		case 'u', 'U':
			width := 4
			if e == 'U' {
				width = 8
			}
			v, n := hexValue(s[i+1:], width)
			if n == 0 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			b.WriteRune(rune(v))
			i += n
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v, n := 0, 0
			start := i
			if e == '0' {
				start = i + 1 // \0NNN
			}
			for n < 3 && start+n < len(s) && s[start+n] >= '0' && s[start+n] <= '7' {
				v = v*8 + int(s[start+n]-'0')
				n++
			}
			b.WriteByte(byte(v))
			i = start + n - 1
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

func hexValue(s string, width int) (int, int) {
	v, n := 0, 0
	for n < width && n < len(s) {
		c := s[n]
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c >= 'a' && c <= 'f':
			d = int(c-'a') + 10
		case c >= 'A' && c <= 'F':
			d = int(c-'A') + 10
		default:
			return v, n
		}
		v = v*16 + d
		n++
	}
	return v, n
}
