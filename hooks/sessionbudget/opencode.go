package sessionbudget

import (
	"encoding/json"
	"math"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// opencode 1.18 keeps no transcript file (its sessions are in a SQLite
// database), but hands every plugin its message.updated events, whose
// assistant messages carry
//
//	"tokens": {"input","output","reasoning","cache":{"read","write"}}
//
// swarm-guard's plugin (clientconfig.OpenCodePlugin) sums them per session
// and, before each call, writes {"tokens":{...}} to a small file it names
// as the event's transcript_path: the session's running total.

// opencodeUsage is the session's usage in the plugin's file; false when
// it holds none.
func opencodeUsage(data []byte) (budget.Usage, bool) {
	var f struct {
		Tokens *struct {
			Input     int64 `json:"input"`
			Output    int64 `json:"output"`
			Reasoning int64 `json:"reasoning"`
			Cache     struct {
				Read  int64 `json:"read"`
				Write int64 `json:"write"`
			} `json:"cache"`
		} `json:"tokens"`
	}
	if json.Unmarshal(data, &f) != nil || f.Tokens == nil {
		return budget.Usage{}, false
	}
	k := f.Tokens
	out := max(k.Output, 0)
	if r := max(k.Reasoning, 0); out > math.MaxInt64-r {
		out = math.MaxInt64 // no wrap to a negative count
	} else {
		out += r
	}
	return budget.Usage{Input: max(k.Input, 0), Output: out,
		CacheCreation: max(k.Cache.Write, 0), CacheRead: max(k.Cache.Read, 0)}, true
}
