// Package agent supervises one agent process for `swarm-guard run`: it
// starts the program in a process group of its own, hands each line of its
// standard output to the caller, and stops the whole group on a wall-clock
// timeout, an idle timeout, a stop request from the caller (a budget) or
// cancellation.
//
// Stopping escalates SIGINT (Claude Code ends the current turn), then
// SIGTERM after half the grace period, then SIGKILL when the grace period
// is over, always to the whole process group, so background commands the
// agent started die with it. Processes left in the group after the agent
// itself exited are orphans and are stopped the same way. On Linux the
// supervisor is a child subreaper, so it also collects the exit status of
// orphaned grandchildren instead of leaving zombies behind. A process that
// moved itself to another process group or session (setsid, nohup with
// job control) is out of reach: containing those needs cgroups.
//
// The package also builds the environment an agent gets: variables that
// look like credentials are removed unless allowed.
package agent
