package toolcontent

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"sync"
)

// MaxBytes is the largest content scanned before a write. Bigger content
// cannot be scanned within the hook's deadline and is refused.
const MaxBytes = 10 << 20

// ErrTooLarge is returned for content over MaxBytes.
var ErrTooLarge = fmt.Errorf("over the %d MB the secret scan accepts before a write", MaxBytes>>20)

// Content is what a tool call would write.
type Content struct {
	Path string // the file, as the tool names it (absolute)
	// Cell is set for NotebookEdit: Text is the new source of one cell,
	// and line numbers count within it.
	Cell bool
	Text string
	// introduced[i] says line i+1 of Text is new; nil means every line is.
	introduced []bool
	// later computes introduced on first use instead (Write: the file on
	// disk is read only when a finding asks, which clean content never
	// does).
	later *lazyLines
}

type lazyLines struct {
	once  sync.Once
	f     func() []bool
	lines []bool
}

func (l *lazyLines) get() []bool {
	l.once.Do(func() { l.lines = l.f() })
	return l.lines
}

// Introduced reports whether any line from first to last (1-based,
// inclusive) is one the call introduces.
func (c Content) Introduced(first, last int) bool {
	if c.later != nil {
		c.introduced = c.later.get()
	}
	if c.introduced == nil {
		return true
	}
	if last < first {
		last = first
	}
	for l := max(first, 1); l <= last && l <= len(c.introduced); l++ {
		if c.introduced[l-1] {
			return true
		}
	}
	return false
}

// Edit is one replacement of Edit or MultiEdit.
type Edit struct {
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all"`
}

// Body is what a file tool's tool_input says to write, without the
// paths: the hook decodes it beside the engine's fields, once.
type Body struct {
	Content string `json:"content"`
	Edit
	Edits     []Edit `json:"edits"`
	NewSource string `json:"new_source"`
}

// Decoded is a file tool's tool_input, decoded.
type Decoded struct {
	FilePath, NotebookPath string
	Body                   Body
}

type input struct {
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Body
}

// Compute returns what tool (Write, Edit, MultiEdit or NotebookEdit) would
// write, reading the current file through readFile. A file that cannot be
// read (missing, a directory, unreadable), or an edit whose old_string is
// not in it, leaves the call's own text as the content: Claude Code will
// refuse such an edit, and scanning what the agent sent is still right.
func Compute(tool string, toolInput json.RawMessage, readFile func(string) ([]byte, error)) (Content, error) {
	var in input
	if err := json.Unmarshal(toolInput, &in); err != nil {
		return Content{}, fmt.Errorf("tool_input of the %s call is malformed: %w", tool, err)
	}
	return FromDecoded(tool, Decoded{FilePath: in.FilePath, NotebookPath: in.NotebookPath, Body: in.Body}, readFile)
}

// FromDecoded is Compute for a tool_input already decoded.
func FromDecoded(tool string, d Decoded, readFile func(string) ([]byte, error)) (Content, error) {
	in := input{FilePath: d.FilePath, NotebookPath: d.NotebookPath, Body: d.Body}
	var c Content
	switch tool {
	case "Write":
		path, text := in.FilePath, in.Content
		c = Content{Path: path, Text: text, later: &lazyLines{f: func() []bool {
			if old, err := readFile(path); err == nil && len(old) <= MaxBytes {
				return introduced(string(old), text)
			}
			return nil
		}}}
	case "Edit":
		c = apply(in.FilePath, []Edit{in.Edit}, readFile)
	case "MultiEdit":
		c = apply(in.FilePath, in.Edits, readFile)
	case "NotebookEdit":
		c = Content{Path: in.NotebookPath, Cell: true, Text: in.NewSource}
	default:
		return Content{}, fmt.Errorf("%s is not a file tool", tool)
	}
	if len(c.Text) > MaxBytes {
		return c, ErrTooLarge
	}
	return c, nil
}

// apply runs edits over the file on disk.
func apply(path string, edits []Edit, readFile func(string) ([]byte, error)) Content {
	ownText := func() Content {
		var parts []string
		for _, e := range edits {
			parts = append(parts, e.NewString)
		}
		return Content{Path: path, Text: strings.Join(parts, "\n")}
	}
	data, err := readFile(path)
	if err != nil || len(data) > MaxBytes {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return ownText() // unreadable: Claude Code cannot edit it either
		}
		data = nil
	}
	old := string(data)
	text := old
	for _, e := range edits {
		switch {
		case e.OldString == "":
			// An empty old_string creates a file (Claude Code refuses it on
			// an existing non-empty file).
			if text != "" {
				return ownText()
			}
			text = e.NewString
		case !strings.Contains(text, e.OldString):
			return ownText()
		case e.ReplaceAll:
			text = strings.ReplaceAll(text, e.OldString, e.NewString)
		default:
			text = strings.Replace(text, e.OldString, e.NewString, 1)
		}
	}
	return Content{Path: path, Text: text, introduced: introduced(old, text)}
}

// introduced marks the lines of new that old does not have, counting
// duplicates: a file with a line twice that gains a third copy gains one
// line.
func introduced(old, new string) []bool {
	have := map[string]int{}
	for _, l := range splitLines(old) {
		have[l]++
	}
	lines := splitLines(new)
	out := make([]bool, len(lines))
	for i, l := range lines {
		if have[l] > 0 {
			have[l]--
			continue
		}
		out[i] = true
	}
	return out
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
