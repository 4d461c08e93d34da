package committed

import (
	"regexp"
	"strings"
)

var (
	localExec   = regexp.MustCompile(`provisioner\s+"local-exec"\s*\{`)
	hclCommand  = regexp.MustCompile(`(?m)^\s*command\s*=\s*`)
	hclShellInt = regexp.MustCompile(`(?m)^\s*interpreter\s*=\s*\[\s*"([^"]*)"`)
)

// terraform returns the command of every provisioner "local-exec" block
// of a .tf file: a quoted string or a here-document (<<EOT, <<-EOT).
// Terraform's interpolations (${var.x}) and directives (%{if}) become
// values only known at apply time; $${ is a literal ${. A block with an
// interpreter that is not a POSIX shell is skipped.
func terraform(text string) []Command {
	var out []Command
	end := 0
	for _, loc := range localExec.FindAllStringIndex(text, -1) {
		if loc[0] < end {
			continue // inside the block before (not HCL anyway): each byte is scanned once
		}
		block := hclBlock(text, loc[1])
		end = loc[1] + len(block)
		if m := hclShellInt.FindStringSubmatch(block); m != nil {
			prog := m[1]
			if i := strings.LastIndexAny(prog, `/\`); i >= 0 {
				prog = prog[i+1:]
			}
			if !isShellName(prog) {
				continue
			}
		}
		cm := hclCommand.FindStringIndex(block)
		if cm == nil {
			continue
		}
		at := loc[1] + cm[1]
		script, first, ok := hclString(text[at:])
		if !ok {
			continue
		}
		line := 1 + strings.Count(text[:at+first], "\n")
		out = append(out, Command{Line: line, Where: `provisioner "local-exec"`, Script: hclValues(script)})
	}
	return out
}

// hclBlock is the text of the block whose { ends at start, up to its
// matching }.
func hclBlock(text string, start int) string {
	depth := 1
	inStr := false
	for i := start; i < len(text); i++ {
		switch c := text[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && c == '{':
			depth++
		case !inStr && c == '}':
			depth--
			if depth == 0 {
				return text[start:i]
			}
		}
	}
	return text[start:]
}

// hclString reads the string value at the start of s: "..." with HCL's
// escapes, or a here-document. first is the offset of its first line.
func hclString(s string) (value string, first int, ok bool) {
	switch {
	case strings.HasPrefix(s, `"`):
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			switch c := s[i]; c {
			case '\\':
				if i+1 < len(s) {
					i++
					switch s[i] {
					case 'n':
						b.WriteByte('\n')
					case 't':
						b.WriteByte('\t')
					default:
						b.WriteByte(s[i])
					}
				}
			case '"':
				return b.String(), 0, true
			case '\n':
				return "", 0, false
			default:
				b.WriteByte(c)
			}
		}
	case strings.HasPrefix(s, "<<"):
		head, body, found := strings.Cut(s, "\n")
		if !found {
			return "", 0, false
		}
		indent := strings.HasPrefix(head, "<<-")
		term := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(head, "<<-"), "<<"))
		var lines []string
		for _, l := range strings.Split(body, "\n") {
			if strings.TrimSpace(l) == term {
				if indent {
					return dedent(lines), len(head) + 1, true
				}
				return strings.Join(lines, "\n"), len(head) + 1, true
			}
			lines = append(lines, l)
		}
	}
	return "", 0, false
}

func dedent(lines []string) string {
	min := -1
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if min < 0 || n < min {
			min = n
		}
	}
	for i, l := range lines {
		if len(l) >= min && min > 0 {
			lines[i] = l[min:]
		}
	}
	return strings.Join(lines, "\n")
}

// hclValues replaces Terraform's interpolations by a placeholder word and
// its escapes ($${, %%{) by what they stand for.
func hclValues(s string) string {
	s = strings.ReplaceAll(s, "$${", "\x00")
	s = strings.ReplaceAll(s, "%%{", "\x01")
	s = hclInterp.ReplaceAllString(s, placeholder)
	s = strings.ReplaceAll(s, "\x00", "${")
	return strings.ReplaceAll(s, "\x01", "%{")
}
