package sessionbudget

import (
	"bytes"
	"encoding/json"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// Copilot CLI 1.0.102 names no transcript in its hook events, but keeps
// one per session at <COPILOT_HOME or ~/.copilot>/session-state/<session
// id>/events.jsonl, and the session id is in every event. After each model
// call it appends
//
//	{"type":"session.usage_record","data":{"usage":{"inputTokens","outputTokens","cacheReadTokens","cacheWriteTokens","reasoningTokens","apiCallId",...}}}
//
// before that call's tools run and their hooks are called (recorded in
// make e2e-clients, 2026-11-28). Its figures are in OpenAI's terms,
// measured with a stand-in that billed 100 prompt tokens of which 40
// cached and 10 completion tokens of which 3 reasoning: inputTokens 100
// (the cached ones among them), cacheReadTokens 40, outputTokens 10 (the
// reasoning ones among them).

// CopilotTranscript is the session file of Copilot CLI session id under
// copilotHome ($COPILOT_HOME, else ~/.copilot); "" for an id that is not
// a plain file name, which cannot point inside that directory.
func CopilotTranscript(copilotHome, sessionID string) string {
	if copilotHome == "" || !plainName(sessionID) {
		return ""
	}
	return filepath.Join(copilotHome, "session-state", sessionID, "events.jsonl")
}

var copilotMark = []byte(`"session.usage_record"`)

// copilotLine counts each model call's usage record once, by its call id.
func copilotLine(t *budget.FileTally, line []byte) {
	if !bytes.Contains(line, copilotMark) {
		return
	}
	var l struct {
		Type string `json:"type"`
		Data struct {
			Usage *struct {
				Input      int64  `json:"inputTokens"`
				Output     int64  `json:"outputTokens"`
				CacheRead  int64  `json:"cacheReadTokens"`
				CacheWrite int64  `json:"cacheWriteTokens"`
				CallID     string `json:"apiCallId"`
			} `json:"usage"`
		} `json:"data"`
	}
	if json.Unmarshal(line, &l) != nil || l.Type != "session.usage_record" || l.Data.Usage == nil {
		return
	}
	k := l.Data.Usage
	tally(t, k.CallID, budget.Usage{Input: max(k.Input-max(k.CacheRead, 0), 0), CacheRead: max(k.CacheRead, 0),
		CacheCreation: max(k.CacheWrite, 0), Output: max(k.Output, 0)})
}
