package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveContainer: pruning and volume removal, removing containers
// chosen at run time, compose down -v, and containers that get the host
// (its root file system, the engine's socket, --privileged). The patterns
// are the containers pack's table (guard/packs/containers.go: docker,
// podman, nerdctl, docker-compose).
var DestructiveContainer = Rule{
	ID:      policy.RuleDestructiveContainer,
	Reason:  "the container engine is shared by every project on the machine, and a container given the host can change anything on it",
	Instead: "remove the one container or image you made by name (docker rm NAME), and mount only the worktree",
	Deny:    []string{"docker system prune -af --volumes", "docker rm -f $(docker ps -aq)", "docker run -v /:/host alpine chroot /host"},
	Allow:   []string{"docker rm web-test", "docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go test ./..."},
	Judge:   judgePackOperation(policy.RuleDestructiveContainer),
}
