package rules

import (
	"path"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// DestructiveContainer: pruning and volume removal, removing containers
// chosen at run time, compose down -v, and containers that get the host
// (--privileged, the host's namespaces, and bind mounts of the host's
// root, the home directory, the directories the worktree lies in, system
// directories or the engine's socket). The patterns are the containers
// pack's table (guard/packs/containers.go: docker, podman, nerdctl,
// docker-compose); which bind mounts are too much is judged here, on the
// path the engine resolved.
var DestructiveContainer = Rule{
	ID:      policy.RuleDestructiveContainer,
	Reason:  "the container engine is shared by every project on the machine, and a container given the host can change anything on it",
	Instead: "remove the one container or image you made by name (docker rm NAME), and mount only the worktree",
	Deny: []string{"docker system prune -af --volumes", "docker rm -f $(docker ps -aq)", "docker run -v /:/host alpine chroot /host",
		"docker run -v \"$HOME\":/root alpine", "docker run -v /work:/w alpine"},
	Allow: []string{"docker rm web-test", "docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go test ./...",
		"docker run -v ~/.cache/go-build:/cache golang:1.26 go build ./...", "docker run -v ./testdata:/data:ro alpine ls /data"},
	Judge: judgeContainer,
}

var judgeContainerOperation = judgePackOperation(policy.RuleDestructiveContainer)

// judgeContainer: the containers pack's operations, and host paths bound
// into a container.
func judgeContainer(e effect.Effect, f *Facts) []Verdict {
	m, ok := e.(effect.HostMount)
	if !ok {
		return judgeContainerOperation(e, f)
	}
	what := hostMountDanger(m.Source, f)
	if what == "" {
		return nil
	}
	return []Verdict{{Reason: m.Program + " bind-mounts " + what + " into the container: as root inside, it can change anything there (" + m.Pack + " pack: " + m.Pattern + ")",
		Instead: "mount only the worktree or a directory inside it (-v \"$PWD\":/src)"}}
}

// hostMountDanger names what a bind mount of t hands the container, or ""
// when it is a place of the agent's own: the host's root, the engine's
// socket, the user's home or a directory holding it, a directory holding
// the worktree (and the other agents' next to it), a system directory. A
// source only known at run time is not guessed at: it is most often the
// worktree ("$(pwd)").
func hostMountDanger(t effect.Target, f *Facts) string {
	p := t.Path
	if t.Dynamic || p == "" {
		return ""
	}
	switch base := path.Base(p); {
	case p == "/":
		return "the host's root file system /"
	case base == "docker.sock" || base == "podman.sock" || base == "containerd.sock" || strings.HasSuffix(base, "docker.sock"):
		return "the container engine's socket " + p + ", with which it starts containers that get the host's root,"
	case f.Root != "" && within(p, f.Root):
		return "" // the worktree, or inside it: the agent's own, even when the worktree is the home directory
	case f.Home != "" && within(f.Home, p):
		return p + ", which holds the home directory " + f.Home + " with its credentials and shell start-up files,"
	case f.Root != "" && within(f.Root, p) && p != f.Root:
		return p + ", which holds the worktree " + f.Root + " and the places next to it,"
	case systemDirs[p]:
		return "the system directory " + p
	}
	return ""
}

// systemDirs are the host directories a container must not get whole.
var systemDirs = map[string]bool{
	"/etc": true, "/usr": true, "/bin": true, "/sbin": true, "/lib": true, "/lib64": true, "/boot": true, "/var": true,
	"/dev": true, "/proc": true, "/sys": true, "/root": true, "/run": true, "/var/run": true, "/var/lib/docker": true,
	"/private": true, "/System": true, "/Library": true, "/Users": true, "/home": true,
}
