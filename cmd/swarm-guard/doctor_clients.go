package main

import (
	"os/exec"

	"github.com/swarm-guard/swarm-guard/hooks/clients"
	"github.com/swarm-guard/swarm-guard/install"
)

// checkClients checks every agent client other than Claude Code that is
// present here (its project directory, its program on PATH, or its
// installed hooks): its hooks run swarm-guard through the launcher that
// fails closed, and none of the traps that make it skip them silently is
// set (install.CheckClient).
func (d *doctor) checkClients() []doctorResult {
	var out []doctorResult
	e := install.ClientEnv{Root: d.t.ctx.Env.Root, Home: d.c.getenv("HOME"), Getenv: d.c.getenv, LookPath: exec.LookPath}
	for _, c := range clients.Others {
		checks, present := install.CheckClient(c, e)
		if !present {
			continue
		}
		name := "client " + string(c)
		for _, ch := range checks {
			switch ch.Status {
			case "ok":
				out = append(out, doctorOK(name, ch.Detail))
			case "warn":
				out = append(out, doctorWarn(name, ch.Detail, ch.Fix))
			default:
				out = append(out, doctorFail(name, ch.Detail, ch.Fix))
			}
		}
	}
	return out
}
