package githook

import "github.com/swarm-guard/swarm-guard/hooks/hookenv"

// Whether a git hook runs for an agent: its own environment
// (hookenv.AgentSession, hookenv.AgentCommit), or, where those variables
// were dropped on the way (a program the engine cannot read, such as
// python's os.environ.pop), a parent process started in an agent session
// (hookenv.AgentAncestor).

// agentAncestor is Env.AgentAncestor, else hookenv.AgentAncestor.
func agentAncestor(c Env) int {
	if c.AgentAncestor != nil {
		return c.AgentAncestor()
	}
	return hookenv.AgentAncestor()
}

// inAgentSession reports whether the hook runs inside an agent's session.
func inAgentSession(c Env) bool {
	return hookenv.AgentSession(c.Getenv) || agentAncestor(c) != 0
}

// agentCommit reports whether the commit being made is an agent's (it
// gets the Agent-Id) rather than a human's.
func agentCommit(c Env) bool {
	return hookenv.AgentCommit(c.Getenv) || agentAncestor(c) != 0
}
