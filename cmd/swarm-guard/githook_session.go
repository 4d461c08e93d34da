package main

import "github.com/swarm-guard/swarm-guard/hooks/hookenv"

// Whether a git hook runs for an agent: its own environment
// (hookenv.AgentSession, hookenv.AgentCommit), or, where those variables
// were dropped on the way (a program the engine cannot read, such as
// python's os.environ.pop), a parent process started in an agent session
// (hookenv.AgentAncestor).

// agentAncestor is hookenv.AgentAncestor; the test binary replaces it so
// scripts are not judged by the session the tests happen to run in.
var agentAncestor = hookenv.AgentAncestor

// inAgentSession reports whether the hook runs inside an agent's session.
func inAgentSession(c *cli) bool {
	return hookenv.AgentSession(c.getenv) || agentAncestor() != 0
}

// agentCommit reports whether the commit being made is an agent's (it
// gets the Agent-Id) rather than a human's.
func agentCommit(c *cli) bool {
	return hookenv.AgentCommit(c.getenv) || agentAncestor() != 0
}
