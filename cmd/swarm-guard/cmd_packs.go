package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/packs"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

func init() {
	commands = append(commands, &command{
		name:    "packs",
		summary: "list the tool packs and the opt-in vendor packs, with their rules and examples",
		usage: `Usage: swarm-guard packs [--json] [--dir DIR] [PACK...]

Lists every pack: the tool packs (always on) and the vendor packs, which
the repository's policy turns on with [packs] enable = ["payment", ...] or
["all"]. Each line gives the pack, whether it is on, its rule count and
the programs it reads (and "HTTP" for packs that judge curl, wget, httpie
and xh requests). Naming packs shows each rule with its reason, what to do
instead and every must-deny and must-allow example.

Flags:
  --json     print the packs as JSON
  --dir DIR  a directory inside the repository whose policy decides which
             vendor packs are on (default: the current one)

Exit codes: 0 listed, 1 the policy file is broken, 2 usage (an unknown pack).`,
		run: runPacks,
	})
}

type packRule struct {
	Rule    string   `json:"rule"`
	Pattern string   `json:"pattern"`
	Reason  string   `json:"reason"`
	Instead string   `json:"instead"`
	HTTP    bool     `json:"http"`
	Deny    []string `json:"deny"`
	Allow   []string `json:"allow"`
}

type packInfo struct {
	Name     string     `json:"name"`
	Vendor   bool       `json:"vendor"`
	On       bool       `json:"on"`
	Programs []string   `json:"programs"`
	Rules    []packRule `json:"rules"`
}

func runPacks(c *cli, args []string) error {
	fs := newFlags("packs")
	asJSON := fs.Bool("json", false, "")
	dir := fs.String("dir", "", "")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	where := *dir
	if where == "" {
		wd, err := c.workdir()
		if err != nil {
			return fmt.Errorf("cannot tell the current directory: %w", err)
		}
		where = wd
	}
	where, err := filepath.Abs(where)
	if err != nil {
		return usageErrorf("usage: bad --dir %q: %v", *dir, err)
	}
	ctx := hookenv.Build(hookenv.Options{Cwd: where, Getenv: c.getenv})
	pol, err := policy.Load(ctx.Env.Root)
	if err != nil {
		return &exitError{code: exitFailure, msg: err.Error() + " (swarm-guard policy check shows every problem)"}
	}
	byName := map[string]*packs.Pack{}
	var names []string
	for _, p := range packs.All() {
		byName[p.Name] = p
		names = append(names, p.Name)
	}
	selected := packs.All()
	if fs.NArg() > 0 {
		selected = nil
		for _, n := range fs.Args() {
			p, ok := byName[n]
			if !ok {
				return usageErrorf("usage: no pack %q; the packs are %s", n, strings.Join(names, ", "))
			}
			selected = append(selected, p)
		}
	}
	var out []packInfo
	for _, p := range selected {
		info := packInfo{Name: p.Name, Vendor: p.Vendor, On: !p.Vendor || pol.Packs.Enabled(p.Name), Programs: p.Programs}
		for _, r := range p.Rules {
			info.Rules = append(info.Rules, packRule{Rule: r.ID, Pattern: r.Name, Reason: r.Reason, Instead: r.Instead, HTTP: r.HTTP != nil,
				Deny: r.Deny, Allow: r.Allow})
		}
		out = append(out, info)
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	for _, p := range out {
		state := "on"
		switch {
		case p.Vendor && !p.On:
			state = "off (vendor: [packs] enable)"
		case p.Vendor:
			state = "on (vendor)"
		}
		reads := strings.Join(p.Programs, ", ")
		for _, r := range p.Rules {
			if r.HTTP {
				reads += ", HTTP (curl, wget, httpie, xh)"
				break
			}
		}
		fmt.Fprintf(c.stdout, "%-13s %-29s %d rules  %s\n", p.Name, state, len(p.Rules), reads)
		if fs.NArg() == 0 {
			if len(p.Rules) > 0 {
				fmt.Fprintf(c.stdout, "%14sdenied: %s | allowed: %s\n", "", p.Rules[0].Deny[0], p.Rules[0].Allow[0])
			}
			continue
		}
		for _, r := range p.Rules {
			fmt.Fprintf(c.stdout, "\n  %s (rule %s): %s\n  instead: %s\n", r.Pattern, r.Rule, r.Reason, r.Instead)
			for _, d := range r.Deny {
				fmt.Fprintf(c.stdout, "    deny   %s\n", d)
			}
			for _, a := range r.Allow {
				fmt.Fprintf(c.stdout, "    allow  %s\n", a)
			}
		}
		fmt.Fprintln(c.stdout)
	}
	return nil
}
