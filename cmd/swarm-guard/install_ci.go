package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/install"
)

// runInstallCI writes the CI workflow that runs swarm-guard verify on
// every pull request: `swarm-guard install --ci github`. root is a
// directory inside the repository. It is idempotent; a workflow file that
// was edited by hand is kept unless force. The workflow installs the
// version of this executable when it is a release, else the latest.
func runInstallCI(c *cli, root, provider string, force, dryRun bool) error {
	if provider != "github" {
		return usageErrorf("usage: --ci %q is not supported; swarm-guard writes workflows for: github", provider)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return usageErrorf("usage: bad directory %q: %v", root, err)
	}
	ctx := hookenv.Build(hookenv.Options{Cwd: abs, Getenv: c.getenv})
	if ctx.Repo == nil {
		return fmt.Errorf("%s is not inside a git repository; run install --ci from the repository the workflow is for", abs)
	}
	ch, err := install.PlanCIWorkflow(install.CIOptions{
		Root: ctx.Env.Root, Provider: provider, Version: releaseVersion(version()), Force: force, StateDir: ctx.StateDir,
	})
	if errors.Is(err, install.ErrCIWorkflowEdited) {
		return &exitError{code: exitFailure, msg: err.Error()}
	}
	if err != nil {
		return err
	}
	rel, _ := filepath.Rel(ctx.Env.Root, ch.Path)
	verb := ""
	if dryRun {
		verb = "would "
	}
	fmt.Fprintf(c.stdout, "%s%s %s: %s\n", verb, ch.Action, filepath.ToSlash(rel), ch.Summary)
	if dryRun || ch.Action == "unchanged" {
		return nil
	}
	if err := install.Apply([]install.Change{ch}); err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, "Commit the workflow and make its \"swarm-guard verify\" check required in the branch protection rules.")
	return nil
}

// releaseVersion is the module version the workflow pins, or "" (latest)
// for a development build, which has no version go install could fetch.
func releaseVersion(v string) string {
	if strings.HasPrefix(v, "v") {
		return v
	}
	return ""
}
