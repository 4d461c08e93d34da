package ci

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// commit is one commit of the range as the log pass reads it.
type commit struct {
	Hash        string
	Parents     []string
	AuthorEmail string
	Subject     string
	// AgentTrailers are the values of every agent trailer in the message's
	// trailer block, in order; git matches the key case-insensitively.
	AgentTrailers []string
	// HumanTrailers are the values of the human marker ([trailers]
	// human_key) the hooks write on a commit made outside agent sessions.
	HumanTrailers []string
}

func (c *commit) isMerge() bool { return len(c.Parents) > 1 }

// historyVisitor receives the log pass as it streams by.
type historyVisitor interface {
	// commit starts a commit; the file and added calls that follow are its.
	commit(c *commit)
	// file starts the diff of one file of the current commit ("" for a
	// deleted file, which adds nothing).
	file(path string)
	// added is one line the current commit adds to the current file,
	// without the diff prefix. Very long lines are cut at maxLineBytes.
	added(line int, text []byte)
}

// Record and field separators of the --format line. A commit's header
// line starts with NUL, which no line of a patch can start with (git shows
// content with NUL bytes as "Binary files differ").
const (
	fieldSep    = "\x1f"
	trailerSep  = "\x1e"
	keyValueSep = "\x1d"
)

// maxLineBytes bounds the part of a patch line that is kept; the checks
// look at line starts, and a minified file must not cost memory.
const maxLineBytes = 64 << 10

// logArgs is the one `git log` that reads the whole range: the header line
// of every commit and, with patches, what each commit adds (merges as a
// combined diff, so a conflict resolved by committing the markers shows).
func logArgs(r Range, keys trailerKeys, patches bool) []string {
	format := "--format=%x00%H%x1f%P%x1f%ae%x1f" +
		"%(trailers:key=" + keys.agent + ",unfold,separator=%x1e,key_value_separator=%x1d)%x1f" +
		"%(trailers:key=" + keys.human + ",unfold,separator=%x1e,key_value_separator=%x1d)%x1f%s"
	args := []string{"log", "--reverse", "--no-color", "--no-show-signature", format}
	if patches {
		// Every option a user's config could change the patch shape with
		// is pinned: prefixes, external diff tools, textconv, submodules.
		args = append(args, "--cc", "-U0", "--find-renames", "--no-ext-diff", "--no-textconv",
			"--no-relative", "--src-prefix=a/", "--dst-prefix=b/", "--submodule=short")
	}
	return append(args, r.Base+".."+r.Head, "--")
}

// trailerKeys are the trailers the log pass reads: the agent id and the
// human marker.
type trailerKeys struct{ agent, human string }

// walkHistory runs the log pass and streams it to v.
func walkHistory(ctx context.Context, g git, r Range, keys trailerKeys, patches bool, v historyVisitor) error {
	read := func(stdout io.Reader) error {
		if err := parseHistory(stdout, v); err != nil {
			return fmt.Errorf("reading git log: %w", err)
		}
		return nil
	}
	return gitError(g.runner().Stream(ctx, read, logArgs(r, keys, patches)...))
}

// parseHistory reads the output of logArgs. The patch is parsed as a state
// machine rather than by counting hunk lines: "diff " starts a file,
// "@@" a hunk, and inside a hunk every line starts with ' ', '+', '-' or
// '\', so an added line that looks like "+++ b/x" is still an added line.
func parseHistory(r io.Reader, v historyVisitor) error {
	br := bufio.NewReaderSize(r, maxLineBytes)
	var (
		cur      *commit
		inHunk   bool
		columns  int // diff prefix width: 1, or the parent count of a combined diff
		nextLine int // line number in the new file of the next hunk line
	)
	for {
		line, err := readLine(br)
		if len(line) > 0 {
			switch {
			case line[0] == 0:
				c, perr := parseHeader(line[1:])
				if perr != nil {
					return perr
				}
				cur, inHunk = c, false
				v.commit(c)
			case cur == nil:
				return fmt.Errorf("unexpected output before the first commit: %.40q", line)
			case bytes.HasPrefix(line, []byte("diff ")):
				inHunk = false
			case line[0] == '@':
				n, cols, ok := parseHunkHeader(line)
				if !ok {
					return fmt.Errorf("commit %s: cannot read hunk header %.80q", shortID(cur.Hash), line)
				}
				inHunk, nextLine, columns = true, n, cols
			case inHunk:
				if line[0] == '\\' { // "\ No newline at end of file"
					continue
				}
				if len(line) < columns {
					inHunk = false
					continue
				}
				prefix := line[:columns]
				if bytes.IndexByte(prefix, '-') >= 0 {
					continue // removed from a parent: not in the new file
				}
				if allPlus(prefix) {
					v.added(nextLine, line[columns:])
				}
				nextLine++
			case bytes.HasPrefix(line, []byte("+++ ")):
				v.file(newPath(string(line[4:])))
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine returns the next line without its newline. A header line is
// returned whole however long it is; any other line is cut at the buffer
// size and its rest skipped.
func readLine(br *bufio.Reader) ([]byte, error) {
	line, err := br.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		if len(line) > 0 && line[0] == 0 {
			whole := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = br.ReadSlice('\n')
				whole = append(whole, line...)
			}
			return bytes.TrimSuffix(whole, []byte("\n")), err
		}
		kept := append([]byte(nil), line...)
		for err == bufio.ErrBufferFull {
			_, err = br.ReadSlice('\n')
		}
		return kept, err
	}
	return bytes.TrimSuffix(line, []byte("\n")), err
}

// parseHeader reads hash, parents, author email, agent trailers, subject.
func parseHeader(b []byte) (*commit, error) {
	f := strings.SplitN(string(b), fieldSep, 6)
	if len(f) != 6 || len(f[0]) < 40 {
		return nil, fmt.Errorf("unexpected commit header %.80q", b)
	}
	c := &commit{Hash: f[0], Parents: strings.Fields(f[1]), AuthorEmail: f[2], Subject: f[5],
		AgentTrailers: splitTrailers(f[3]), HumanTrailers: splitTrailers(f[4])}
	return c, nil
}

// splitTrailers reads the values of one %(trailers:...) field.
func splitTrailers(field string) []string {
	var vals []string
	if field != "" {
		for _, t := range strings.Split(field, trailerSep) {
			_, value, _ := strings.Cut(t, keyValueSep)
			vals = append(vals, value)
		}
	}
	return vals
}

// parseHunkHeader reads "@@ -a,b +c,d @@" or a combined diff's
// "@@@ -a,b -c,d +e,f @@@": the first line number in the new file and the
// width of the line prefix (one column per parent).
func parseHunkHeader(line []byte) (newStart, columns int, ok bool) {
	ats := 0
	for ats < len(line) && line[ats] == '@' {
		ats++
	}
	if ats < 2 {
		return 0, 0, false
	}
	for _, tok := range strings.Fields(string(line[ats:])) {
		if strings.Trim(tok, "@") == "" {
			break // the closing @@; what follows is function context
		}
		if rest, found := strings.CutPrefix(tok, "+"); found {
			start, _, _ := strings.Cut(rest, ",")
			n, err := strconv.Atoi(start)
			if err != nil {
				return 0, 0, false
			}
			return n, ats - 1, true
		}
	}
	return 0, 0, false
}

func allPlus(b []byte) bool {
	for _, c := range b {
		if c != '+' {
			return false
		}
	}
	return true
}

// newPath reads the path of a "+++ " line: "b/path", a C-quoted
// "\"b/p\\303\\251\"" for unusual names, or /dev/null for a deletion.
func newPath(s string) string {
	if s == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			s = u
		}
	}
	return strings.TrimPrefix(s, "b/")
}
