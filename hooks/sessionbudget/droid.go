package sessionbudget

import (
	"encoding/json"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// Droid 0.225 writes no usage into its transcript
// (~/.factory/sessions/<project>/<session>.jsonl, the file its hook events
// name): its message lines carry the content only. The session's usage is
// in the file beside it, <session>.settings.json, a JSON object Droid
// rewrites after every model response, before the tool of that response
// runs (recorded in make e2e-clients, 2026-11-27: 110, 220, 330, 440
// budgeted tokens seen by four calls in a row):
//
//	"tokenUsage":          {"inputTokens","outputTokens","cacheCreationTokens","cacheReadTokens","thinkingTokens",...}
//	"inclusiveTokenUsage": the same with the session's subagents (child sessions)
//
// Droid fills them in the budget's terms already (read from its bundled
// code): inputTokens is the prompt without its cached part, cache writes
// and reads apart, and outputTokens the API's output count, which holds
// the thinking tokens (thinkingTokens is the part of it that was
// thinking, so it is not added again).

// droidSettingsPath is the file holding the usage of the session whose
// transcript is transcript.
func droidSettingsPath(transcript string) string {
	return strings.TrimSuffix(transcript, ".jsonl") + ".settings.json"
}

// droidTokens is one of the settings file's usage objects.
type droidTokens struct {
	Input         int64 `json:"inputTokens"`
	Output        int64 `json:"outputTokens"`
	CacheCreation int64 `json:"cacheCreationTokens"`
	CacheRead     int64 `json:"cacheReadTokens"`
}

// droidUsage is the session's usage in a settings file, its subagents'
// included when Droid wrote that total; false when data holds neither.
func droidUsage(data []byte) (budget.Usage, bool) {
	var s struct {
		Own       *droidTokens `json:"tokenUsage"`
		Inclusive *droidTokens `json:"inclusiveTokenUsage"`
	}
	if json.Unmarshal(data, &s) != nil {
		return budget.Usage{}, false
	}
	k := s.Inclusive
	if k == nil {
		k = s.Own
	}
	if k == nil {
		return budget.Usage{}, false
	}
	return budget.Usage{Input: max(k.Input, 0), Output: max(k.Output, 0),
		CacheCreation: max(k.CacheCreation, 0), CacheRead: max(k.CacheRead, 0)}, true
}
