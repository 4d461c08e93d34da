package committed

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Finding is a command of a committed file that a rule reports in the
// context where it runs.
type Finding struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Format  Format `json:"format"`
	Context string `json:"context"` // ci, build or dev
	Where   string `json:"where"`   // "job build, step 3"
	Rule    string `json:"rule"`
	// Action is the rule's action under the policy: deny or ask, or warn
	// or log in a shadow mode (reported, never blocking).
	Action  policy.Action `json:"action"`
	Reason  string        `json:"reason"`
	Trigger string        `json:"trigger,omitempty"`
	Instead string        `json:"instead,omitempty"`
	// Fingerprint names the finding in an ignore file: FILE:RULE:HASH,
	// the hash of the rule and the trigger, so it survives lines moving.
	Fingerprint string `json:"fingerprint"`
}

// Options are what the adapter knows of the repository.
type Options struct {
	// Remotes are the URLs of the repository's remotes: a credential may
	// go back to the repository's own host.
	Remotes []string
	// Lines, when set, keeps only the commands of a file that start on
	// or span one of these lines (the lines a commit adds): an existing
	// Dockerfile never blocks an unrelated commit.
	Lines map[string][]LineRange
}

// LineRange is a run of lines, first to last inclusive.
type LineRange struct{ First, Last int }

// Judge runs every command through eng in its format's context and
// returns what the context's rules report, sorted by file and line.
func Judge(eng *guard.Engine, cmds []Command, opt Options) []Finding {
	var out []Finding
	for i := range cmds {
		c := &cmds[i]
		if opt.Lines != nil && !touches(c, opt.Lines[c.File]) {
			continue
		}
		out = append(out, judgeOne(eng, c, opt)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].File != out[j].File {
			return out[i].File < out[j].File
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func judgeOne(eng *guard.Engine, c *Command, opt Options) []Finding {
	ctx := contextOf(c)
	d := eng.CheckCommand(c.Script, ctx.env(c, opt.Remotes))
	var out []Finding
	seen := map[string]bool{}
	for _, f := range d.Findings {
		if f.Rule == policy.RuleBadInput {
			f.Reason = "the command cannot be read as a shell script, so no rule could judge it: " + f.Reason
			f.Alternative = "write it as a POSIX or bash script, or move it into a script file the step runs"
		} else if !ctx.keep(f) {
			continue
		}
		key := f.Rule + "\x00" + f.Trigger
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, Finding{
			File: c.File, Line: c.lineOf(f.Trigger), Format: c.Format, Context: ctx.Name, Where: c.Where,
			Rule: f.Rule, Action: f.Action, Reason: f.Reason, Trigger: f.Trigger, Instead: f.Alternative,
			Fingerprint: Fingerprint(c.File, f.Rule, f.Trigger),
		})
	}
	return out
}

// Fingerprint is FILE:RULE:HASH for a finding, HASH the first 12 hex
// digits of the SHA-256 of the rule and the trigger with its whitespace
// squeezed: moving the line or re-indenting it keeps the fingerprint.
func Fingerprint(file, rule, trigger string) string {
	sum := sha256.Sum256([]byte(rule + "\x00" + strings.Join(strings.Fields(trigger), " ")))
	return file + ":" + rule + ":" + hex.EncodeToString(sum[:6])
}

// touches reports whether the command starts on or spans one of ranges.
func touches(c *Command, ranges []LineRange) bool {
	last := c.Line + strings.Count(c.Script, "\n")
	if c.Folded {
		last = c.Line
	}
	if n := len(c.lineMap); n > 0 {
		last = c.lineMap[n-1]
	}
	for _, r := range ranges {
		if r.First <= last && c.Line <= r.Last {
			return true
		}
	}
	return false
}
