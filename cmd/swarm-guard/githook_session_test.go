package main

import (
	"os"

	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
)

// In the test binary the hooks look for an agent session only among the
// processes a script started (SWARM_GUARD_TEST_ANCESTRY=1 in their
// environment), never in the session the tests happen to run in.
func init() {
	agentAncestor = func() int {
		if os.Getenv("SWARM_GUARD_TEST_ANCESTRY") != "1" {
			return 0
		}
		return hookenv.AgentAncestorWithin("SWARM_GUARD_TEST_ANCESTRY=1")
	}
	approveAncestor = agentAncestor
}
