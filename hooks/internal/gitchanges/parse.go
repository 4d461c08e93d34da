package gitchanges

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Hunk is one run of added lines.
type Hunk struct {
	Commit string // the commit that adds the lines; "" for staged changes
	File   string // new path, slash-separated, relative to the repository top
	Line   int    // new-side number of the first added line
	// Text holds the added lines, each ending in "\n" except a last line
	// git marked "\ No newline at end of file".
	Text []byte
	// Binary marks a file git shows as "Binary files ... differ"; it has
	// no Text.
	Binary bool
}

// Lines returns the lines of Text without their line ends.
func (h Hunk) Lines() []string {
	s := strings.TrimSuffix(string(h.Text), "\n")
	if s == "" && len(h.Text) == 0 {
		return nil
	}
	return strings.Split(s, "\n")
}

// Parse reads the output of `git diff -U0` or `git log -p -U0` and calls
// fn for each hunk's added lines, in order. The patch must be produced
// with a/ and b/ prefixes (see diffArgs).
func Parse(r io.Reader, fn func(Hunk) error) error {
	p := parser{r: bufio.NewReaderSize(r, 256<<10), fn: fn}
	return p.run()
}

type parser struct {
	r      *bufio.Reader
	fn     func(Hunk) error
	lineNo int

	commit string
	file   string
	gotNew bool // the current file header had a +++ line
	hunk   *Hunk
}

func (p *parser) errorf(format string, args ...any) error {
	return fmt.Errorf("git output line %d: %s", p.lineNo, fmt.Sprintf(format, args...))
}

func (p *parser) run() error {
	for {
		line, err := p.r.ReadBytes('\n')
		if len(line) > 0 {
			p.lineNo++
			if perr := p.header(line); perr != nil {
				return perr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read git output: %w", err)
		}
	}
}

// header handles one line outside a hunk body.
func (p *parser) header(line []byte) error {
	text := strings.TrimRight(string(line), "\r\n")
	switch {
	case strings.HasPrefix(text, "commit "):
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return p.errorf("bad commit line %q", text)
		}
		p.commit, p.file, p.gotNew = fields[1], "", false
	case strings.HasPrefix(text, "diff --git "), strings.HasPrefix(text, "diff --cc "), strings.HasPrefix(text, "diff --combined "):
		p.file, p.gotNew = "", false
	case strings.HasPrefix(text, "+++ "):
		name, err := unquote(strings.TrimSuffix(text[4:], "\t"))
		if err != nil {
			return p.errorf("bad file name in %q: %v", text, err)
		}
		p.gotNew = true
		if name == "/dev/null" {
			p.file = ""
		} else {
			p.file = strings.TrimPrefix(name, "b/")
		}
	case strings.HasPrefix(text, "Binary files ") && strings.HasSuffix(text, " differ"):
		if name := binaryName(text); name != "" {
			return p.fn(Hunk{Commit: p.commit, File: name, Binary: true})
		}
	case strings.HasPrefix(text, "@@ "):
		return p.body(text)
	}
	return nil
}

// body reads one hunk: its header gives how many old and new lines follow.
func (p *parser) body(header string) error {
	oldN, newStart, newN, err := parseHunkHeader(header)
	if err != nil {
		return p.errorf("%v", err)
	}
	if !p.gotNew {
		return p.errorf("hunk without a +++ file header")
	}
	h := Hunk{Commit: p.commit, File: p.file, Line: newStart}
	for oldN > 0 || newN > 0 {
		line, err := p.r.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			return p.errorf("the patch ends inside a hunk of %s", p.file)
		}
		p.lineNo++
		switch line[0] {
		case '+':
			h.Text = append(h.Text, line[1:]...)
			newN--
		case '-':
			oldN--
		case ' ':
			oldN--
			newN--
		case '\\':
			// "\ No newline at end of file" after a removed line.
		default:
			return p.errorf("unexpected line in a hunk of %s: %q", p.file, clip(line))
		}
	}
	// A "\ No newline at end of file" marker may follow the last line.
	if next, err := p.r.Peek(1); err == nil && next[0] == '\\' {
		if _, err := p.r.ReadBytes('\n'); err != nil && err != io.EOF {
			return fmt.Errorf("read git output: %w", err)
		}
		p.lineNo++
		if len(h.Text) > 0 && h.Text[len(h.Text)-1] == '\n' {
			h.Text = h.Text[:len(h.Text)-1]
		}
	}
	if len(h.Text) == 0 || p.file == "" {
		return nil
	}
	return p.fn(h)
}

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@".
func parseHunkHeader(h string) (oldN, newStart, newN int, err error) {
	fields := strings.Fields(h)
	if len(fields) < 4 || fields[3] != "@@" && !strings.HasPrefix(fields[3], "@@") || !strings.HasPrefix(fields[1], "-") || !strings.HasPrefix(fields[2], "+") {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q", h)
	}
	_, oldN, err = rangeOf(fields[1][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q: %v", h, err)
	}
	newStart, newN, err = rangeOf(fields[2][1:])
	if err != nil {
		return 0, 0, 0, fmt.Errorf("bad hunk header %q: %v", h, err)
	}
	return oldN, newStart, newN, nil
}

// rangeOf reads "start[,count]"; count defaults to 1.
func rangeOf(s string) (start, count int, err error) {
	a, b, ok := strings.Cut(s, ",")
	if start, err = strconv.Atoi(a); err != nil {
		return 0, 0, err
	}
	count = 1
	if ok {
		if count, err = strconv.Atoi(b); err != nil {
			return 0, 0, err
		}
	}
	return start, count, nil
}

// unquote reads a file name git may have C-quoted ("b/t\303\244st").
func unquote(s string) (string, error) {
	if !strings.HasPrefix(s, `"`) {
		return s, nil
	}
	return strconv.Unquote(s)
}

// binaryName extracts the new name from "Binary files a/x and b/y differ".
func binaryName(text string) string {
	inner := strings.TrimSuffix(strings.TrimPrefix(text, "Binary files "), " differ")
	i := strings.LastIndex(inner, " and ")
	if i < 0 {
		return ""
	}
	name, err := unquote(inner[i+5:])
	if err != nil || name == "/dev/null" {
		return ""
	}
	return strings.TrimPrefix(name, "b/")
}

func clip(b []byte) string {
	b = bytes.TrimRight(b, "\r\n")
	if len(b) > 60 {
		b = b[:60]
	}
	return string(b)
}
