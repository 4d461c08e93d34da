package history

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Call is one recorded tool call.
type Call struct {
	Source string // file:line it was read from
	Tool   string // the tool's name as the client recorded it (Bash, Write, mcp__s__t)
	// Input is the tool_input object as recorded; from an audit log it is
	// rebuilt from the command or path the log kept.
	Input   json.RawMessage
	Cwd     string // the directory the call ran in, as recorded
	Project string // the session's launch directory (its first cwd): the agent's home worktree
	Session string
	// Agent names who made the call: the audit log's agent id, else the
	// session (and the subagent, for sidechain calls).
	Agent string
	Time  string // the recorded timestamp, RFC 3339
	// Recorded is the decision the audit log holds for the call ("" for
	// transcripts): allow, deny, ask, warn, log, trusted...
	Recorded string
}

// Problem kinds: lines that hold no call and are not the format's own
// other lines.
const (
	Corrupt   = "corrupt"   // not JSON
	Truncated = "truncated" // the file's last line, cut off mid-write
	Foreign   = "foreign"   // JSON, but not a transcript or audit record
)

// Problem is a line that could not be read.
type Problem struct {
	Kind   string `json:"kind"`
	Source string `json:"source"` // file:line
	Detail string `json:"detail"`
}

// Stats counts what a read saw.
type Stats struct {
	Files    int       `json:"files"`
	Lines    int       `json:"lines"`
	Calls    int       `json:"calls"`
	Problems []Problem `json:"problems"`
}

// Count returns the number of problems of a kind.
func (s *Stats) Count(kind string) int {
	n := 0
	for _, p := range s.Problems {
		if p.Kind == kind {
			n++
		}
	}
	return n
}

// Format is what a file holds.
type Format int

const (
	Transcript Format = iota // a Claude Code transcript
	Audit                    // swarm-guard's audit log
)

// MaxLine bounds one line: a Write of a large file is recorded whole in
// its tool_use. A longer line is reported as corrupt and skipped.
const MaxLine = 64 << 20

// Read reads one file's calls in order, calling emit for each. Bad lines
// are added to st; only a read error of the file itself is returned.
func Read(r io.Reader, name string, f Format, st *Stats, emit func(*Call)) error {
	br := bufio.NewReaderSize(r, 256<<10)
	st.Files++
	var p parser
	p.name, p.format, p.st, p.emit = name, f, st, emit
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) > 0 || err == nil {
			st.Lines++
			p.line(line, n, err == io.EOF)
		}
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, errLong) {
			st.Problems = append(st.Problems, Problem{Corrupt, fmt.Sprintf("%s:%d", name, n), fmt.Sprintf("a line over %d MiB", MaxLine>>20)})
			continue
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
	}
}

var errLong = errors.New("line too long")

// readLine returns the next line without its newline; io.EOF with the
// last line when the file does not end in a newline (a line being
// written).
func readLine(br *bufio.Reader) ([]byte, error) {
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(long)+len(chunk) > MaxLine {
				// Skip to the end of the line.
				for err == bufio.ErrBufferFull {
					_, err = br.ReadSlice('\n')
				}
				if err != nil && err != io.EOF {
					return nil, err
				}
				return nil, errLong
			}
			long = append(long, chunk...)
			continue
		}
		if long != nil {
			chunk = append(long, chunk...)
		}
		if err == nil {
			return bytes.TrimRight(chunk[:len(chunk)-1], "\r"), nil
		}
		return chunk, err
	}
}

type parser struct {
	name    string
	format  Format
	st      *Stats
	emit    func(*Call)
	project string // the first cwd of the file
}

func (p *parser) problem(kind string, n int, detail string) {
	p.st.Problems = append(p.st.Problems, Problem{kind, fmt.Sprintf("%s:%d", p.name, n), detail})
}

func (p *parser) line(line []byte, n int, last bool) {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if line[0] != '{' {
		if json.Valid(line) {
			p.problem(Foreign, n, "a JSON value that is not an object")
		} else if last {
			p.problem(Truncated, n, "the last line ends mid-record (the file was being written)")
		} else {
			p.problem(Corrupt, n, "not JSON")
		}
		return
	}
	if p.format == Audit {
		p.auditLine(line, n, last)
		return
	}
	p.transcriptLine(line, n, last)
}

// bad classifies a line json could not decode.
func (p *parser) bad(line []byte, n int, last bool, err error) {
	switch {
	case !json.Valid(line) && last:
		p.problem(Truncated, n, "the last line ends mid-record (the file was being written)")
	case !json.Valid(line):
		p.problem(Corrupt, n, "not JSON: "+jsonError(err))
	default:
		p.problem(Foreign, n, "not a record of this format: "+jsonError(err))
	}
}

func jsonError(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("%v at byte %d", se, se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("field %s holds a JSON %s", te.Field, te.Value)
	}
	return err.Error()
}

// transcriptRecord is the part of a transcript line replay reads.
type transcriptRecord struct {
	Type      string `json:"type"`
	Cwd       string `json:"cwd"`
	SessionID string `json:"sessionId"`
	AgentID   string `json:"agentId"`
	Sidechain bool   `json:"isSidechain"`
	Timestamp string `json:"timestamp"`
	Message   *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type toolUse struct {
	Type  string          `json:"type"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// toolUseMark is in every line that holds a call; other lines are only
// checked to be JSON.
var toolUseMark = []byte(`"tool_use"`)

func (p *parser) transcriptLine(line []byte, n int, last bool) {
	if !bytes.Contains(line, toolUseMark) {
		// Most lines: prompts, tool results, progress. Only their
		// shape is checked, and the first cwd kept.
		if !json.Valid(line) {
			p.bad(line, n, last, errors.New("invalid JSON"))
			return
		}
		if p.project == "" && bytes.Contains(line, []byte(`"cwd"`)) {
			var r struct {
				Cwd string `json:"cwd"`
			}
			if json.Unmarshal(line, &r) == nil {
				p.project = r.Cwd
			}
		}
		if !bytes.Contains(line, []byte(`"type"`)) {
			p.problem(Foreign, n, "a JSON object without a type: not a Claude Code transcript line")
		}
		return
	}
	var r transcriptRecord
	if err := json.Unmarshal(line, &r); err != nil {
		p.bad(line, n, last, err)
		return
	}
	if r.Type == "" {
		p.problem(Foreign, n, "a JSON object without a type: not a Claude Code transcript line")
		return
	}
	if p.project == "" {
		p.project = r.Cwd
	}
	if r.Type != "assistant" || r.Message == nil || len(r.Message.Content) == 0 || r.Message.Content[0] != '[' {
		return // a tool result or a prompt that mentions tool_use
	}
	var blocks []toolUse
	if err := json.Unmarshal(r.Message.Content, &blocks); err != nil {
		p.problem(Foreign, n, "message.content is not a list of content blocks: "+jsonError(err))
		return
	}
	agent := r.SessionID
	if len(agent) > 8 {
		agent = agent[:8]
	}
	if r.Sidechain && r.AgentID != "" {
		agent += "/" + r.AgentID
	}
	for _, b := range blocks {
		if b.Type != "tool_use" {
			continue
		}
		if b.Name == "" {
			p.problem(Foreign, n, "a tool_use block without a name")
			continue
		}
		if r.Cwd == "" {
			p.problem(Foreign, n, "a tool call without the cwd it ran in")
			continue
		}
		in := b.Input
		if len(in) == 0 {
			in = json.RawMessage("{}")
		}
		p.st.Calls++
		p.emit(&Call{Source: fmt.Sprintf("%s:%d", p.name, n), Tool: b.Name, Input: in, Cwd: r.Cwd, Project: p.project,
			Session: r.SessionID, Agent: agent, Time: r.Timestamp})
	}
}

// auditRecord is the part of an audit line replay reads (hooks/audit).
type auditRecord struct {
	Time       string `json:"time"`
	Event      string `json:"event"`
	SessionID  string `json:"session_id"`
	AgentID    string `json:"agent_id"`
	SubagentID string `json:"subagent_id"`
	Tool       string `json:"tool"`
	Cwd        string `json:"cwd"`
	Command    string `json:"command"`
	Path       string `json:"path"`
	Action     string `json:"action"`
	Kind       string `json:"kind"`
}

func (p *parser) auditLine(line []byte, n int, last bool) {
	var r auditRecord
	if err := json.Unmarshal(line, &r); err != nil {
		p.bad(line, n, last, err)
		return
	}
	switch {
	case r.Event == "" && r.Action == "" && r.Kind == "":
		p.problem(Foreign, n, "a JSON object without event or action: not a swarm-guard audit record")
		return
	case r.Event != "PreToolUse" || r.Tool == "":
		return // a PostToolUse record, a run record, a git hook's
	case r.Cwd == "":
		p.problem(Foreign, n, "an audit record without the cwd the call ran in")
		return
	}
	in, ok := auditInput(r)
	if !ok {
		return // a tool whose input the log does not keep (an MCP call's arguments)
	}
	agent := r.AgentID
	if agent == "" {
		agent = r.SessionID
		if len(agent) > 8 {
			agent = agent[:8]
		}
	}
	if r.SubagentID != "" {
		agent += "/" + r.SubagentID
	}
	p.st.Calls++
	p.emit(&Call{Source: fmt.Sprintf("%s:%d", p.name, n), Tool: r.Tool, Input: in, Cwd: r.Cwd, Project: r.Cwd,
		Session: r.SessionID, Agent: agent, Time: r.Time, Recorded: r.Action})
}

// auditInput rebuilds the tool_input of an audit record from what the log
// kept: a Bash command, a file tool's path, a web tool's URL or query.
func auditInput(r auditRecord) (json.RawMessage, bool) {
	var v map[string]string
	switch r.Tool {
	case "Bash", "PowerShell":
		if r.Command == "" || strings.HasSuffix(r.Command, "…") {
			return nil, false // truncated in the log: judging a prefix would mislead
		}
		v = map[string]string{"command": r.Command}
	case "Write", "Edit", "MultiEdit", "Read":
		if r.Path == "" {
			return nil, false
		}
		v = map[string]string{"file_path": r.Path}
	case "NotebookEdit":
		v = map[string]string{"notebook_path": r.Path}
	case "Grep", "Glob", "LS", "EnterWorktree":
		v = map[string]string{"path": r.Path}
	case "WebFetch":
		v = map[string]string{"url": r.Command}
	case "WebSearch":
		v = map[string]string{"query": r.Command}
	default:
		return nil, false
	}
	b, _ := json.Marshal(v)
	return b, true
}

// Files lists the history files under the given paths: each file as
// given, each directory's *.jsonl files recursively, sorted, so a replay
// reads in a stable order. A file named audit.jsonl is an audit log.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, root := range paths {
		fi, err := os.Stat(root)
		if err != nil {
			return nil, err
		}
		if !fi.IsDir() {
			out = append(out, root)
			continue
		}
		var found []string
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}

// FormatOf says what a file holds, by its name.
func FormatOf(path string) Format {
	if filepath.Base(path) == "audit.jsonl" {
		return Audit
	}
	return Transcript
}

// ReadFiles reads every file in order.
func ReadFiles(files []string, st *Stats, emit func(*Call)) error {
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		err = Read(fh, f, FormatOf(f), st, emit)
		fh.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
