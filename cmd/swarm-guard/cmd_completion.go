package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
)

func init() {
	commands = append(commands, &command{
		name:    "completion",
		summary: "print a shell completion script (bash, zsh or fish)",
		usage: `Usage: swarm-guard completion bash|zsh|fish

Prints a completion script for the shell: the commands, and each command's
flags. Load it with:
  bash:  source <(swarm-guard completion bash)      (or save it under ~/.local/share/bash-completion/completions/swarm-guard)
  zsh:   swarm-guard completion zsh > "${fpath[1]}/_swarm-guard"
  fish:  swarm-guard completion fish > ~/.config/fish/completions/swarm-guard.fish`,
		run: runCompletion,
	})
}

var flagInUsage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[\s\[|(])(--[a-z][a-z0-9-]*)`) })

// completionTable lists the visible commands with the flags their usage
// text names (--help included), so completion follows the usage texts and
// cannot drift from them.
func completionTable() (names []string, flags map[string][]string) {
	flags = map[string][]string{}
	for _, cmd := range commands {
		if cmd.hidden {
			continue
		}
		names = append(names, cmd.name)
		set := []string{"--help"}
		for _, m := range flagInUsage().FindAllStringSubmatch(cmd.usage, -1) {
			if !slices.Contains(set, m[1]) {
				set = append(set, m[1])
			}
		}
		slices.Sort(set)
		flags[cmd.name] = set
	}
	slices.Sort(names)
	return names, flags
}

func runCompletion(c *cli, args []string) error {
	if len(args) != 1 {
		return usageErrorf("usage: completion needs one shell: bash, zsh or fish")
	}
	names, flags := completionTable()
	var b strings.Builder
	switch args[0] {
	case "bash":
		b.WriteString("# bash completion for swarm-guard (swarm-guard completion bash)\n_swarm_guard() {\n\tlocal cur=${COMP_WORDS[COMP_CWORD]}\n\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n")
		fmt.Fprintf(&b, "\t\tCOMPREPLY=($(compgen -W %q -- \"$cur\"))\n\t\treturn\n\tfi\n\tcase ${COMP_WORDS[1]} in\n", strings.Join(names, " "))
		for _, n := range names {
			fmt.Fprintf(&b, "\t%s) COMPREPLY=($(compgen -W %q -- \"$cur\")) ;;\n", n, strings.Join(flags[n], " "))
		}
		b.WriteString("\tesac\n\t[ ${#COMPREPLY[@]} -eq 0 ] && COMPREPLY=($(compgen -f -- \"$cur\"))\n}\ncomplete -F _swarm_guard swarm-guard\n")
	case "zsh":
		b.WriteString("#compdef swarm-guard\n# zsh completion for swarm-guard (swarm-guard completion zsh)\n_swarm_guard() {\n\tif (( CURRENT == 2 )); then\n")
		fmt.Fprintf(&b, "\t\tcompadd -- %s\n\t\treturn\n\tfi\n\tcase $words[2] in\n", strings.Join(names, " "))
		for _, n := range names {
			fmt.Fprintf(&b, "\t%s) compadd -- %s; _files ;;\n", n, strings.Join(flags[n], " "))
		}
		b.WriteString("\tesac\n}\ncompdef _swarm_guard swarm-guard\n")
	case "fish":
		b.WriteString("# fish completion for swarm-guard (swarm-guard completion fish)\n")
		for _, cmd := range commands {
			if !cmd.hidden {
				fmt.Fprintf(&b, "complete -c swarm-guard -n __fish_use_subcommand -f -a %s -d %s\n", cmd.name, fishQuote(cmd.summary))
			}
		}
		for _, n := range names {
			for _, f := range flags[n] {
				fmt.Fprintf(&b, "complete -c swarm-guard -n '__fish_seen_subcommand_from %s' -l %s\n", n, strings.TrimPrefix(f, "--"))
			}
		}
	default:
		return usageErrorf("usage: unknown shell %q; completion knows bash, zsh and fish", args[0])
	}
	fmt.Fprint(c.stdout, b.String())
	return nil
}

func fishQuote(s string) string {
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}
