package hookenv

import (
	"bytes"
	"os"
	"strconv"
)

// AgentAncestor reports whether a process above this one runs in an agent
// session: its environment as it was started (/proc/<pid>/environ) has
// CLAUDECODE=1 or SWARM_GUARD_RUN. A command that drops those variables
// (python's os.environ.pop, a program the engine cannot read) still runs
// below the agent's shell, whose started environment it cannot change, so
// the git hooks take its commit for the agent's, not a human's. It returns
// the pid found (0 for none). A process that left the tree (a double fork
// reparented to init) is not found. Linux only; elsewhere it finds none.
func AgentAncestor() int {
	return agentAncestor("/proc", os.Getppid(), nil)
}

// AgentAncestorWithin is AgentAncestor confined to the parents whose
// started environment holds the line mark: tests walk only the processes
// their script started, not the session the tests themselves run in.
func AgentAncestorWithin(mark string) int {
	return agentAncestor("/proc", os.Getppid(), []byte(mark))
}

// agentAncestor walks the parents of pid under a proc root, at most 128
// up, and, with a mark, only while their environments hold it.
func agentAncestor(proc string, pid int, mark []byte) int {
	for i := 0; i < 128 && pid > 1; i++ {
		dir := proc + "/" + strconv.Itoa(pid)
		env, err := os.ReadFile(dir + "/environ")
		if mark != nil && (err != nil || !bytes.Contains(append([]byte{0}, env...), append(append([]byte{0}, mark...), 0))) {
			return 0
		}
		if err == nil && agentEnviron(env) {
			return pid
		}
		stat, err := os.ReadFile(dir + "/stat")
		if err != nil {
			return 0
		}
		// pid (comm) state ppid ...: comm may hold spaces and parentheses.
		end := bytes.LastIndexByte(stat, ')')
		if end < 0 {
			return 0
		}
		f := bytes.Fields(stat[end+1:])
		if len(f) < 2 {
			return 0
		}
		next, err := strconv.Atoi(string(f[1]))
		if err != nil || next == pid {
			return 0
		}
		pid = next
	}
	return 0
}

// agentEnviron reports whether a NUL-separated environment marks an agent
// session, as AgentSession does for the variables themselves.
func agentEnviron(env []byte) bool { return markedEnviron(env) }
