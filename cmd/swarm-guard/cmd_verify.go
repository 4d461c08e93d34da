package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/ci"
	"github.com/swarm-guard/swarm-guard/hooks/githook"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "verify",
		summary: "recheck a pull request's commits in CI (trailers, secrets, conflict markers, committed commands)",
		usage: `Usage: swarm-guard verify [--range BASE..HEAD] [--format text|json|github|sarif] [--min-agents N]

Checks every commit of the range, whoever pushed it and whichever hooks it
skipped: exactly one well-formed agent trailer per commit, or the human
marker (Committed-By: human) the hooks write outside agent sessions
([verify] exempt_merges, exempt_authors, human_commits and agent_branches
in the policy); in a clone whose hooks recorded who made its commits, a
trailer that names someone else; no secrets in the lines
the range adds (even if a later commit removes them), no unresolved
conflict markers, no command added to a file others run (a workflow's
run step, a Dockerfile RUN, a Makefile recipe, a package.json script, a
script) that the guard's rules report where it runs, and optionally a
minimum number of distinct agents.
The policy is read from the range's base commit, so a pull request cannot
relax the rules it is checked against.

The default range is the merge base of HEAD and the default branch's
remote-tracking ref (origin/HEAD, else origin/main, else origin/master)
up to HEAD. A shallow clone is an error: fetch full history
(actions/checkout: fetch-depth: 0).

Exit codes: 0 pass, 1 violations, 2 usage or environment error.

Flags:
  --range BASE..HEAD  the commits to check (those in HEAD and not in BASE)
  --format FORMAT     text (default), json, sarif, or github: workflow
                      annotations, plus a Markdown summary appended to
                      $GITHUB_STEP_SUMMARY when it is set
  --scope GLOB,...    fail when the range changes files no glob matches (the
                      task's expected scope; default: [verify] scope)
  --min-agents N      require N distinct agent ids across the range
                      (default: [verify] min_agents of the policy)
  --branch NAME       the branch the range is on, for [verify] agent_branches
                      (default: $GITHUB_HEAD_REF, else the checked-out branch)
  --policy FILE       use this policy file instead of the base's
  --skip-secrets      do not scan for secrets (another CI step does)
  --skip-commands     do not judge the commands the range adds to files others
                      run (workflows, Dockerfiles, Makefiles, package.json
                      scripts, scripts: docs/committed-files.md)
  --dir DIR           a directory inside the repository (default: the current one)`,
		run: runVerify,
	})
}

// verifyScanner returns the secret scanner verify runs over the range:
// this executable's scan command, which hands the lines to the separate
// swarm-guard-secrets process (the only one that links gitleaks). Tests
// replace it to run without that process.
var verifyScanner = func(c *cli) (ci.SecretScanner, error) {
	if findCommand("scan") == nil {
		return nil, errors.New("this swarm-guard build has no scan command, so it cannot check the range for secrets; " +
			"install both executables (go install github.com/swarm-guard/swarm-guard/cmd/...@latest) or pass --skip-secrets")
	}
	exe, err := c.executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find this executable to run the secret scan: %w", err)
	}
	return ci.ScannerProcess{CommandScanner: ci.CommandScanner{Command: []string{exe, "scan"}}, Runner: secretscan.Runner{Self: exe}}, nil
}

func runVerify(c *cli, args []string) error {
	fs := newFlags("verify")
	rangeSpec := fs.String("range", "", "")
	format := fs.String("format", "text", "")
	minAgents := fs.Int("min-agents", 0, "")
	scope := fs.StringSlice("scope", nil, "")
	policyFile := fs.String("policy", "", "")
	skipSecrets := fs.Bool("skip-secrets", false, "")
	skipCommands := fs.Bool("skip-commands", false, "")
	branch := fs.String("branch", "", "")
	dir := fs.String("dir", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErrorf("usage: unexpected arguments %q; give the range with --range BASE..HEAD", fs.Args())
	}
	if !slices.Contains(ci.Formats, *format) {
		return usageErrorf("usage: --format must be one of %s, not %q", strings.Join(ci.Formats, ", "), *format)
	}
	if *minAgents < 0 {
		return usageErrorf("usage: --min-agents must be 0 or more")
	}
	opts := ci.Options{Range: *rangeSpec, MinAgents: -1, SkipCommands: *skipCommands}
	if fs.Changed("scope") {
		opts.Scope = *scope
	}
	if fs.Changed("min-agents") {
		opts.MinAgents = *minAgents
	}
	fail := func(err error) error { return verifyEnvError(c, *format, err) }

	where := *dir
	if where == "" {
		wd, err := c.workdir()
		if err != nil {
			return fail(fmt.Errorf("cannot tell the current directory: %w", err))
		}
		where = wd
	}
	abs, err := filepath.Abs(where)
	if err != nil {
		return usageErrorf("usage: bad --dir %q: %v", where, err)
	}
	opts.Dir = abs
	// The range's branch, for [verify] agent_branches: --branch, else the
	// pull request's head in GitHub Actions, else the checked-out branch.
	opts.Branch = *branch
	if opts.Branch == "" {
		opts.Branch = c.getenv("GITHUB_HEAD_REF")
	}
	if opts.Branch == "" {
		if r, ok := gitrepo.Find(abs); ok {
			opts.Branch = r.Branch
		}
	}
	if *policyFile != "" {
		if opts.Policy, err = policy.LoadFile(*policyFile); err != nil {
			return fail(err)
		}
	}
	if !*skipSecrets {
		if opts.Scanner, err = verifyScanner(c); err != nil {
			return fail(err)
		}
	}

	// Where this clone's hooks recorded who made its commits, the
	// trailers must agree (nothing is recorded in CI).
	records, err := githook.LoadCommitRecords(abs)
	if err != nil {
		return fail(err)
	}
	if records != nil {
		opts.Recorded = records.RecordSays
	}
	rep, err := ci.Verify(context.Background(), opts)
	if err != nil {
		return fail(err)
	}
	if err := ci.Write(c.stdout, *format, rep, version()); err != nil {
		return fmt.Errorf("cannot write the report: %w", err)
	}
	if *format == "github" {
		appendStepSummary(c, func(f *os.File) error { return ci.WriteStepSummary(f, rep) })
	}
	if !rep.Passed() {
		return failed()
	}
	return nil
}

// verifyEnvError ends verify with exit 2 for a problem that is neither a
// pass nor a violation. In GitHub Actions the message also becomes an
// annotation and a step summary, where people look, not only a log line.
func verifyEnvError(c *cli, format string, err error) error {
	msg := err.Error()
	if format == "github" {
		fmt.Fprintf(c.stdout, "::error title=swarm-guard verify could not run::%s\n", strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(msg))
		appendStepSummary(c, func(f *os.File) error {
			_, err := fmt.Fprintf(f, "## swarm-guard verify could not run\n\n%s\n\n", msg)
			return err
		})
	}
	return &exitError{code: exitBlock, msg: msg}
}

// appendStepSummary appends to $GITHUB_STEP_SUMMARY when it is set. A
// summary that cannot be written is reported but does not change the
// verdict: the annotations and the exit code already carry it.
func appendStepSummary(c *cli, write func(*os.File) error) {
	path := c.getenv("GITHUB_STEP_SUMMARY")
	if path == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err == nil {
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "swarm-guard verify: cannot write the step summary %s: %v\n", path, err)
	}
}
