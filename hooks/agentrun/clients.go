package agentrun

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
	"github.com/swarm-guard/swarm-guard/hooks/clients"
)

// guardOtherClient is guardAgent for the agent clients other than Claude
// Code: run starts one only when the worktree's committed config runs
// swarm-guard, refuses the modes that skip hooks (opencode --pure and
// OPENCODE_PURE), and adds what a headless run needs for the hooks to run
// at all: Codex's exec skips a hook whose hash was never approved
// (--dangerously-bypass-hook-trust runs the project's enabled hooks
// without it), Copilot's -p skips repository hooks in a folder it does not
// trust (--trust-folder). ok is false for a program that is no such client.
func (r *runner) guardOtherClient(root string) (ok bool, err error) {
	c, known := otherClient(r.argv[0])
	if !known {
		return false, nil
	}
	refuse := func(why string) error {
		return &unguardedError{"not starting " + string(c) + ": " + why + "; swarm-guard run only starts agents that run the guard's hooks"}
	}
	if !clientconfig.HasClientHooksIn(root, c) {
		rel, _ := filepath.Rel(root, clientconfig.ClientConfigPath(root, c))
		return true, refuse(rel + " does not run swarm-guard (swarm-guard install --client " + string(c) + ")")
	}
	args := r.argv[1:]
	if i := slices.Index(args, "--"); i >= 0 {
		args = args[:i]
	}
	switch c {
	case clients.OpenCode:
		if v := r.c.Getenv("OPENCODE_PURE"); v != "" && v != "0" && v != "false" {
			return true, refuse("OPENCODE_PURE is set, which makes opencode load no plugin (unset it)")
		}
		if slices.Contains(args, "--pure") {
			return true, refuse("--pure makes opencode load no plugin, swarm-guard's included")
		}
	case clients.Codex:
		for i, a := range args {
			if (a == "--disable" && i+1 < len(args) && args[i+1] == "hooks") || a == "--disable=hooks" {
				return true, refuse("--disable hooks switches Codex's hooks off")
			}
		}
		if len(args) > 0 && args[0] == "exec" && !slices.Contains(args, "--dangerously-bypass-hook-trust") {
			r.argv = slices.Insert(r.argv, 2, "--dangerously-bypass-hook-trust")
		}
	case clients.Copilot:
		if (slices.Contains(args, "-p") || slices.ContainsFunc(args, func(a string) bool { return a == "--prompt" || strings.HasPrefix(a, "--prompt=") })) &&
			!slices.Contains(args, "--trust-folder") {
			r.argv = append(r.argv[:1], append([]string{"--trust-folder"}, r.argv[1:]...)...)
		}
	}
	return true, nil
}

// otherClient names the client a program starts, by its base name.
func otherClient(program string) (clients.Name, bool) {
	base := strings.TrimSuffix(filepath.Base(program), ".exe")
	for _, c := range clients.Others {
		if base == clientconfig.ClientProgram(c) {
			return c, true
		}
	}
	return "", false
}
