package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "policy",
		summary: "check a policy file, or print the commented default policy",
		usage: `Usage:
  swarm-guard policy check [FILE]   validate FILE (default: the repository's .swarm-guard.toml)
  swarm-guard policy default        print the default policy with its comments

policy check exits 0 when the policy is valid, 1 when it is not (the hook then
denies every tool call), 2 on a usage error.`,
		run: runPolicy,
	})
}

func runPolicy(c *cli, args []string) error {
	if len(args) == 0 {
		return usageErrorf("usage: policy needs a subcommand: check or default")
	}
	switch args[0] {
	case "default":
		fmt.Fprint(c.stdout, policy.DefaultText)
		return nil
	case "check":
		if len(args) > 2 {
			return usageErrorf("usage: policy check takes at most one file")
		}
		file := ""
		if len(args) == 2 {
			file = args[1]
		} else {
			wd, err := c.workdir()
			if err != nil {
				return err
			}
			root := wd
			if repo, ok := gitrepo.Find(wd); ok {
				root = repo.Root
			}
			file = filepath.Join(root, policy.FileName)
			if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
				fmt.Fprintf(c.stdout, "no %s in %s: the built-in default policy applies (swarm-guard policy default prints it)\n", policy.FileName, root)
				return nil
			}
		}
		if _, err := policy.LoadFile(file); err != nil {
			// Every problem, in file order, so one round of edits fixes them.
			problems := policy.List(err)
			for _, e := range problems {
				fmt.Fprintln(c.stderr, e)
			}
			if len(problems) > 1 {
				fmt.Fprintf(c.stderr, "%d problems in %s\n", len(problems), file)
			}
			return failed()
		}
		fmt.Fprintf(c.stdout, "ok: %s is a valid policy\n", file)
		return nil
	}
	return usageErrorf("usage: unknown policy subcommand %q", args[0])
}
