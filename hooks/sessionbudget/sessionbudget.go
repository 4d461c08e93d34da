package sessionbudget

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/internal/state"
)

// Dir is the directory of the session files inside the state directory.
const Dir = "sessions"

// MaxReadPerCall bounds the transcript bytes one call reads. The hook must
// answer within its internal deadline; a transcript that grew by more
// (a session checked for the first time, with gigabytes behind it) is
// caught up over the next calls, counting low meanwhile.
const MaxReadPerCall = 64 << 20

// Request is one tool call of a session.
type Request struct {
	StateDir       string // the swarm-guard state directory
	SessionID      string // the client's session id
	TranscriptPath string // the session's transcript, from the hook input; "" when unknown
	// Client names the agent client whose transcript it is ("" for
	// Claude Code; clienttranscripts.go).
	Client string
	Limits budget.HookLimits
	Now    time.Time
}

// Verdict is the session's state after counting the call.
type Verdict struct {
	Exceeded  *budget.Exceeded // the first limit passed, nil when within every limit
	ToolCalls int64
	Tokens    budget.Usage
}

// Check counts one tool call of the session, reads what was appended to
// its transcripts since the last call (only when a token limit is set),
// and reports whether a limit is passed. The error says what could not be
// read or written; the caller decides whether that blocks the call.
func Check(r Request) (Verdict, error) {
	var v Verdict
	err := state.Update(Path(r.StateDir, r.SessionID), func(t *budget.SessionTally) error {
		t.Version = budget.SessionTallyVersion
		t.SessionID = r.SessionID
		t.ToolCalls++
		t.Updated = r.Now.UTC()
		if r.Limits.Tokens > 0 && r.TranscriptPath != "" {
			if err := readUsage(t, r); err != nil {
				return err
			}
		}
		v.Exceeded = r.Limits.Check(t)
		if v.Exceeded != nil && t.Exhausted == "" {
			t.Exhausted = v.Exceeded.Budget
		}
		v.ToolCalls, v.Tokens = t.ToolCalls, t.Usage()
		return nil
	})
	return v, err
}

// Exhausted returns the limit the hook enforced on a session, "" when it
// never denied a call for a budget.
func Exhausted(stateDir, sessionID string) (budget.Kind, error) {
	t, err := state.Read[budget.SessionTally](Path(stateDir, sessionID))
	return t.Exhausted, err
}

// Path is the state file of a session. Session ids are UUIDs; anything
// that is not a plain file name is hashed, so a strange id cannot point
// outside the directory.
func Path(stateDir, sessionID string) string {
	name := sessionID
	if !plainName(name) {
		sum := sha256.Sum256([]byte(sessionID))
		name = "h-" + hex.EncodeToString(sum[:16])
	}
	return filepath.Join(stateDir, Dir, name+".json")
}

func plainName(s string) bool {
	if s == "" || len(s) > 128 || s[0] == '.' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// readUsage accounts the tokens the session's client wrote since the last
// call: Droid's in the settings file beside its transcript, opencode's in
// the file its plugin writes, the others' in the transcript itself
// (clienttranscripts.go).
func readUsage(t *budget.SessionTally, r Request) error {
	switch r.Client {
	case "droid":
		p := droidSettingsPath(r.TranscriptPath)
		return readSnapshot(t.File(p), p, droidUsage)
	case "opencode":
		return readSnapshot(t.File(r.TranscriptPath), r.TranscriptPath, opencodeUsage)
	}
	if read := readerFor(r.Client); read != nil {
		return readTranscripts(t, r.TranscriptPath, r.Client == "", read)
	}
	return nil
}

// readTranscripts accounts what was appended to the main transcript and,
// for Claude Code (subagents), to the subagent transcripts next to it
// (<session>/subagents/*.jsonl).
func readTranscripts(t *budget.SessionTally, main string, subagents bool, read lineReader) error {
	left := int64(MaxReadPerCall)
	if err := advance(t.File(main), main, &left, read); err != nil {
		return err
	}
	if !subagents {
		return nil
	}
	dir := filepath.Join(strings.TrimSuffix(main, ".jsonl"), "subagents")
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("read subagent transcripts: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := advance(t.File(p), p, &left, read); err != nil {
			return err
		}
	}
	return nil
}

// advance accounts the complete lines appended to path since t.Offset,
// until *left bytes were read. A last line without its newline is still
// being written and is left for the next call.
func advance(t *budget.FileTally, path string, left *int64, read lineReader) error {
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil // not written yet, or --no-session-persistence
		}
		return fmt.Errorf("read transcript: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("read transcript: %w", err)
	}
	size := fi.Size()
	if size < t.Offset {
		// The file was truncated or replaced: count its new content. The
		// totals so far stay, since those tokens were spent.
		t.Offset, t.LastID, t.Last = 0, "", budget.Usage{}
	}
	if size == t.Offset || *left <= 0 {
		return nil
	}
	if _, err := f.Seek(t.Offset, io.SeekStart); err != nil {
		return fmt.Errorf("read transcript %s: %w", path, err)
	}
	r := bufio.NewReaderSize(io.LimitReader(f, size-t.Offset), 256<<10)
	var long []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, chunk...)
			continue
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read transcript %s: %w", path, err)
		}
		line := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			line = long
		}
		read(t, line)
		t.Offset += int64(len(line))
		*left -= int64(len(line))
		if *left <= 0 {
			return nil
		}
		long = long[:0]
	}
}
