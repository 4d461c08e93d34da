package committed

import "strings"

// Command is one command a committed file holds for someone to run.
type Command struct {
	File   string // slash-separated, relative to the repository root
	Line   int    // the line of File the script's first line is on (1-based)
	Format Format
	// Where names the command inside its file as a finding says it: "job
	// build, step 3", "target install", "script postinstall (run by every
	// npm install)".
	Where string
	// Script is the shell text as it will run: expressions the format
	// fills in at run time (${{ matrix.os }}, {{.VAR}}) replaced by values
	// standing for them. Line k of Script is line Line+k-1 of File unless
	// Folded.
	Script string
	// Folded says Script's lines are not File's (a YAML folded scalar, a
	// joined continuation): every finding points at Line.
	Folded bool
	// lineMap, when set, is the line of File each line of Script comes
	// from (a Dockerfile drops its comment lines from a RUN).
	lineMap []int
	// Dir is the directory it runs in, relative to its context's root
	// ("" for the root itself) or absolute.
	Dir string
	// Vars are variables the format sets for it with values known from the
	// file (env:, variables:, ENV); Secrets are those holding the context's
	// secrets: name -> source ("secrets.DEPLOY_KEY").
	Vars    map[string]string
	Secrets map[string]string
}

// lineOf is the line of File a finding whose trigger is trigger points
// at: the line where the trigger's first line is found in Script, else
// the command's first line.
func (c *Command) lineOf(trigger string) int {
	if c.Folded || trigger == "" {
		return c.Line
	}
	first, _, _ := strings.Cut(trigger, "\n")
	first = strings.TrimSpace(strings.TrimSuffix(first, "…"))
	if len(first) > 60 {
		first = first[:60]
	}
	if first == "" {
		return c.Line
	}
	i := strings.Index(c.Script, first)
	if i < 0 {
		return c.Line
	}
	n := strings.Count(c.Script[:i], "\n")
	if n < len(c.lineMap) {
		return c.lineMap[n]
	}
	return c.Line + n
}

func addVar(m *map[string]string, k, v string) {
	if *m == nil {
		*m = map[string]string{}
	}
	(*m)[k] = v
}
