package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/history"
	"github.com/swarm-guard/swarm-guard/hooks/replay"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "replay",
		summary: "judge recorded tool calls (Claude Code transcripts, the audit log) under a policy",
		usage: `Usage: swarm-guard replay [--policy FILE] [--against OTHER.toml] [--audit] [--json] [PATH...]

Judges every tool call of a team's real history as the hook would under a
policy, and prints per rule how many calls it would deny, ask about, warn
about or log, by how many agents, and where it first triggered
(file:line). With --against, prints only the calls the two policies decide
differently. The step between a week in log mode and enforcing
(docs/rollout.md).

PATH is a Claude Code transcript (.jsonl), a directory of them (read
recursively: ~/.claude/projects holds one directory per project, each
session's subagent sidechains under <session>/subagents/), or an audit log
(audit.jsonl). Default (no PATH, no --audit): the transcripts under ~/.claude/projects
($CLAUDE_CONFIG_DIR/projects). Each call is judged in the directory it ran
in, as recorded, so a transcript from another machine keeps its paths.
Lines that are not JSON, cut off or of another format are counted and named
(file:line), never fatal.

  --policy FILE     the policy to judge by (default: this repository's
                    .swarm-guard.toml, else the default policy)
  --against FILE    a second policy: print only the decisions that change
  --audit           also read this repository's audit log
  --json            print the report as JSON
Exit codes: 0 replayed, 1 a path or policy could not be read, 2 usage error.`,
		run: runReplay,
	})
}

func runReplay(c *cli, args []string) error {
	fs := newFlags("replay")
	polFile := fs.String("policy", "", "")
	against := fs.String("against", "", "")
	withAudit := fs.Bool("audit", false, "")
	format := fs.String("format", "text", "")
	asJSON := fs.Bool("json", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *asJSON {
		*format = "json"
	}
	if *format != "text" && *format != "json" {
		return usageErrorf("usage: --format must be text or json, not %q", *format)
	}
	wd, err := c.workdir()
	if err != nil {
		return fmt.Errorf("cannot find the working directory: %w", err)
	}
	repo, inRepo := gitrepo.Find(wd)
	var pol *policy.Policy
	switch {
	case *polFile != "":
		pol, err = policy.LoadFile(*polFile)
	case inRepo:
		pol, err = policy.Load(repo.Root)
	default:
		pol = policy.Default()
	}
	if err != nil {
		return &exitError{code: exitBlock, msg: err.Error()}
	}
	var other *policy.Policy
	if *against != "" {
		if other, err = policy.LoadFile(*against); err != nil {
			return &exitError{code: exitBlock, msg: err.Error()}
		}
	}
	paths := fs.Args()
	if *withAudit {
		if !inRepo {
			return usageErrorf("usage: --audit reads this repository's audit log: run replay inside the repository")
		}
		paths = append(paths, filepath.Join(audit.Dir(repo.CommonDir, c.getenv), audit.FileName))
	}
	if len(paths) == 0 {
		paths = append(paths, claudeProjects(c.getenv))
	}
	files, err := history.Files(paths)
	if err != nil {
		return &exitError{code: exitBlock, msg: err.Error() + "; name transcripts (.jsonl), directories of them or an audit log"}
	}
	r := &replay.Replayer{Policy: pol, Against: other, Decide: replay.HookDecider(c.getenv)}
	var st history.Stats
	if err := history.ReadFiles(files, &st, r.Add); err != nil {
		return &exitError{code: exitBlock, msg: err.Error()}
	}
	return replay.Write(c.stdout, r.Report(st), *format == "json")
}

// claudeProjects is where Claude Code keeps its transcripts.
func claudeProjects(getenv func(string) string) string {
	if d := getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return filepath.Join(d, "projects")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".claude", "projects")
}
