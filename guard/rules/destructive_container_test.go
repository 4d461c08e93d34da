package rules

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// TestHostMountVerdicts: which resolved bind-mount sources the container
// rule denies, from the facts alone (home, worktree).
func TestHostMountVerdicts(t *testing.T) {
	f := &Facts{Policy: policy.Default(), Root: "/work/repo", Home: "/home/agent", Temp: "/tmp"}
	mount := func(p string, dynamic bool) effect.HostMount {
		return effect.HostMount{Pack: "containers", Pattern: "container-host-access", Program: "docker",
			Source: effect.Target{Tool: "docker", Path: p, Dynamic: dynamic, Shown: "`" + p + "`"}}
	}
	deny := []string{policy.RuleDestructiveContainer}
	checkVerdicts(t, f, []verdictCase{
		{e: mount("/", false), rules: deny, reason: "docker bind-mounts the host's root file system / into the container: as root inside, it can change anything there (containers pack: container-host-access)"},
		{e: mount("/run/user/1000/docker.sock", false), rules: deny},
		{e: mount("/var/run/docker.sock", false), rules: deny},
		{e: mount("/home/agent", false), rules: deny},
		{e: mount("/home", false), rules: deny},
		{e: mount("/work", false), rules: deny},
		{e: mount("/etc", false), rules: deny},
		{e: mount("/work/repo", false)},
		{e: mount("/work/repo/testdata", false)},
		{e: mount("/home/agent/.cache/go-build", false)},
		{e: mount("/tmp/build", false)},
		{e: mount("/etc/localtime", false)},
		{e: mount("", true)},
	})
	// A worktree that is the home directory itself is still the agent's own.
	home := &Facts{Policy: policy.Default(), Root: "/home/agent", Home: "/home/agent"}
	checkVerdicts(t, home, []verdictCase{
		{e: mount("/home/agent", false)},
		{e: mount("/home/agent/src", false)},
		{e: mount("/home", false), rules: deny},
	})
}
