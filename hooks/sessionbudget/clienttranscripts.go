package sessionbudget

import (
	"bytes"
	"encoding/json"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// The transcripts of agent clients other than Claude Code, as each wrote
// them in make e2e-clients (2026-11-27). The hook gets the file's path
// from the client's event (transcript_path). Copilot CLI sends none, but
// its session file is found from the session id (copilot.go); opencode
// names none, so [budget] max_tokens cannot count its tokens. Droid's
// transcript holds no usage: its reader is in droid.go.
//
//   - Codex 0.169 (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl): after
//     each model response an event_msg line whose payload is
//     {"type":"token_count","info":{"total_token_usage":{...}}}, the
//     session's running total in OpenAI's terms (input_tokens counts the
//     cached_input_tokens among them; output_tokens the reasoning ones).
//   - Gemini CLI 0.61 (~/.gemini/tmp/<project>/chats/session-*.jsonl): a
//     line per model message, {"id","type":"gemini","tokens":{"input",
//     "output","cached","thoughts","tool","total"}}, written again under
//     the same id as the message grows (its tool calls, their results).
//   - Qwen Code 0.24 (~/.qwen/projects/<project>/chats/<session>.jsonl): a
//     line per model response, {"type":"assistant","usageMetadata":
//     {"promptTokenCount","candidatesTokenCount","thoughtsTokenCount",
//     "cachedContentTokenCount"}} (Gemini's API terms: the prompt count
//     holds the cached tokens).
//
// Each maps onto budget.Usage's disjoint kinds: input without the cached
// part, cache reads, output with the thinking tokens.

// lineReader accounts one complete transcript line into a file's tally.
type lineReader func(t *budget.FileTally, line []byte)

// readerFor is the transcript reader for the client a hook event names
// ("" is Claude Code), nil for a client whose transcript is not read
// line by line (Droid: readUsage).
func readerFor(client string) lineReader {
	switch client {
	case "", "claude":
		return (*budget.FileTally).Line
	case "codex":
		return codexLine
	case "gemini":
		return geminiLine
	case "qwen":
		return qwenLine
	case "copilot":
		return copilotLine
	}
	return nil
}

var codexMark = []byte(`"token_count"`)

// codexLine: the last running total is the session's usage.
func codexLine(t *budget.FileTally, line []byte) {
	if !bytes.Contains(line, codexMark) {
		return
	}
	var l struct {
		Type    string `json:"type"`
		Payload struct {
			Type string `json:"type"`
			Info *struct {
				Total *struct {
					Input  int64 `json:"input_tokens"`
					Cached int64 `json:"cached_input_tokens"`
					Output int64 `json:"output_tokens"`
				} `json:"total_token_usage"`
			} `json:"info"`
		} `json:"payload"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "event_msg" || l.Payload.Type != "token_count" ||
		l.Payload.Info == nil || l.Payload.Info.Total == nil {
		return
	}
	tot := l.Payload.Info.Total
	u := budget.Usage{Input: max(tot.Input-tot.Cached, 0), CacheRead: tot.Cached, Output: tot.Output}
	if u.Budgeted() < t.Usage.Budgeted() {
		return // an older total (never seen; a running total only grows)
	}
	if u != t.Usage {
		t.Turns++
	}
	t.Usage = u
}

var geminiMark = []byte(`"tokens"`)

// geminiLine counts each model message once, by its id, at the largest
// figures written for it.
func geminiLine(t *budget.FileTally, line []byte) {
	if !bytes.Contains(line, geminiMark) {
		return
	}
	var l struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Tokens *struct {
			Input    int64 `json:"input"`
			Output   int64 `json:"output"`
			Cached   int64 `json:"cached"`
			Thoughts int64 `json:"thoughts"`
			Tool     int64 `json:"tool"`
		} `json:"tokens"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "gemini" || l.Tokens == nil {
		return
	}
	k := l.Tokens
	tally(t, l.ID, budget.Usage{Input: max(k.Input-k.Cached, 0) + k.Tool, CacheRead: k.Cached, Output: k.Output + k.Thoughts})
}

var qwenMark = []byte(`"usageMetadata"`)

// qwenLine counts each assistant line (one per model response).
func qwenLine(t *budget.FileTally, line []byte) {
	if !bytes.Contains(line, qwenMark) {
		return
	}
	var l struct {
		UUID  string `json:"uuid"`
		Type  string `json:"type"`
		Usage *struct {
			Prompt   int64 `json:"promptTokenCount"`
			Output   int64 `json:"candidatesTokenCount"`
			Thoughts int64 `json:"thoughtsTokenCount"`
			Cached   int64 `json:"cachedContentTokenCount"`
		} `json:"usageMetadata"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "assistant" || l.Usage == nil {
		return
	}
	k := l.Usage
	tally(t, l.UUID, budget.Usage{Input: max(k.Prompt-k.Cached, 0), CacheRead: k.Cached, Output: k.Output + k.Thoughts})
}

// tally adds a message's usage, once per id: a message written again
// under the id of the previous line counts only what grew.
func tally(t *budget.FileTally, id string, u budget.Usage) {
	if id != "" && id == t.LastID {
		counted := t.Last.Max(u)
		t.Usage = t.Usage.Add(counted.Sub(t.Last))
		t.Last = counted
		return
	}
	t.LastID, t.Last = id, u
	t.Usage = t.Usage.Add(u)
	t.Turns++
}
