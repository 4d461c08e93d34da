package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/committed"

	"github.com/swarm-guard/swarm-guard/hooks/committedscan"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/format"
)

func init() {
	commands = append(commands, &command{
		name:    "scan",
		summary: "scan staged changes, a commit range or files for secrets (gitleaks rules)",
		usage: `Usage: swarm-guard scan [--staged | --range A..B | PATH...] [--format text|json|sarif]
       swarm-guard scan --commands [--staged | --range A..B | PATH...] [--format text|json|sarif]

Scans for secrets with gitleaks' rules. A repository .gitleaks.toml
(including [extend] useDefault), inline gitleaks:allow comments and
.gitleaksignore fingerprints are honoured, and so are [secrets] allow_paths
and gitleaks_allow of the policy. Without a mode it scans the current
directory. Every secret is shown redacted.

  --staged        the lines the staged changes add (what the pre-commit hook scans)
  --range A..B    the lines every commit in the range adds; a secret added
                  and removed later in the range is still reported
  PATH...         files and directories (.git directories are skipped)
  --format FMT    text (default), json, or sarif (SARIF 2.1.0 for code scanning)

With --commands it judges what committed files hold for others to run
instead (shell scripts, Makefiles, package.json scripts, justfiles,
Taskfiles, Dockerfile RUN, docker-compose, GitHub Actions and composite
actions, GitLab CI, Terraform local-exec, lefthook and pre-commit local
hooks), each command by the guard's rules in the context where it runs (a
CI job, an image build, a teammate's checkout); with --staged or --range
only the commands on lines the changes add. Fingerprints of accepted
findings go in .swarm-guard-ignore (docs/committed-files.md).

Exit codes: 0 no secrets, 1 secrets found, 2 error (including files that
could not be read). With --commands: 0 nothing to report (or only findings
of rules in warn or log mode), 1 findings, 2 error.`,
		run: runScan,
	})
}

func runScan(c *cli, args []string) error {
	fs := newFlags("scan")
	staged := fs.Bool("staged", false, "")
	revs := fs.String("range", "", "")
	outFormat := fs.String("format", format.Text, "")
	commands := fs.Bool("commands", false, "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	modes := 0
	for _, on := range []bool{*staged, *revs != "", fs.NArg() > 0} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return usageErrorf("usage: give one of --staged, --range or paths")
	}
	switch *outFormat {
	case format.Text, format.JSON, format.SARIF:
	default:
		return usageErrorf("usage: --format must be text, json or sarif, not %q", *outFormat)
	}
	wd, err := c.workdir()
	if err != nil {
		return fmt.Errorf("cannot tell the current directory: %w", err)
	}
	repo, root, pol, err := hookenv.RepoPolicy(wd, "")
	if repo == nil && (*staged || *revs != "") {
		return fmt.Errorf("%s is not inside a git repository; --staged and --range need one", wd)
	}
	if err != nil {
		return fmt.Errorf("the policy is broken: %v; fix it (swarm-guard policy check)", err)
	}
	if root == "" {
		root = wd
	}
	if *commands {
		return scanCommands(c, committedscan.Request{Root: filepath.Clean(root), Policy: pol}, wd, *staged, *revs, fs.Args(), *outFormat)
	}
	self, _ := c.executable()
	rep, err := secretscan.Scan(context.Background(), secretscan.ScanRequest{
		Dir: wd, Root: filepath.Clean(root), Staged: *staged, Range: *revs, Paths: fs.Args(), Policy: pol,
		Runner: secretscan.Runner{Self: self},
	})
	incomplete := errors.Is(err, secretscan.ErrIncomplete)
	if err != nil && !incomplete {
		return err
	}
	if werr := format.Write(c.stdout, *outFormat, rep, version()); werr != nil {
		return fmt.Errorf("write the report: %w", werr)
	}
	n := len(rep.Findings)
	if *outFormat == format.Text {
		switch {
		case n > 0:
			fmt.Fprintf(c.stdout, "FAIL: %d secret(s) found. Remove them, rotate any that are real, and read credentials from an environment variable or a secret manager; a fake credential for a test can carry a gitleaks:allow comment.\n", n)
		case !incomplete:
			fmt.Fprintln(c.stdout, "ok: no secrets found")
		}
	}
	switch {
	case n > 0:
		if incomplete {
			fmt.Fprintf(c.stderr, "swarm-guard scan: %v\n", err)
		}
		return failed()
	case incomplete:
		return err
	}
	return nil
}

// scanCommands is scan --commands: the commands committed files hold,
// judged where they run.
func scanCommands(c *cli, req committedscan.Request, wd string, staged bool, revs string, paths []string, outFormat string) error {
	var fs []committed.Finding
	var err error
	switch {
	case staged:
		fs, err = committedscan.Changes(context.Background(), req)
	case revs != "":
		base, head, ok := strings.Cut(revs, "...")
		if !ok {
			base, head, ok = strings.Cut(revs, "..")
		}
		if !ok || base == "" || head == "" {
			return usageErrorf("usage: --range must be BASE..HEAD, not %q", revs)
		}
		req.Base, req.Head = base, head
		fs, err = committedscan.Changes(context.Background(), req)
	default:
		fs, err = committedscan.Tree(req, wd, paths)
	}
	if err != nil {
		return err
	}
	switch outFormat {
	case format.JSON:
		err = committedscan.WriteJSON(c.stdout, fs)
	case format.SARIF:
		err = committedscan.WriteSARIF(c.stdout, version(), fs)
	default:
		committedscan.WriteText(c.stdout, fs)
	}
	if err != nil {
		return fmt.Errorf("write the report: %w", err)
	}
	blocking := 0
	for _, f := range fs {
		if committedscan.Blocking(f) {
			blocking++
		}
	}
	if outFormat == format.Text {
		switch {
		case blocking > 0:
			fmt.Fprintf(c.stdout, "FAIL: %d committed command(s) that the guard would not run where they run. Change them as each line's Instead says, or, if the team accepts one, add its fingerprint to %s (a human's change).\n", blocking, committed.IgnoreFile)
		case len(fs) > 0:
			fmt.Fprintf(c.stdout, "ok: %d finding(s) in warn or log mode, none blocking\n", len(fs))
		default:
			fmt.Fprintln(c.stdout, "ok: no committed command to report")
		}
	}
	if blocking > 0 {
		return failed()
	}
	return nil
}
