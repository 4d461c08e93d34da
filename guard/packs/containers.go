package packs

import (
	"strings"

	"github.com/swarm-guard/swarm-guard/policy"
)

// containers: docker and its drop-in replacements. Building, running and
// reading are safe; pruning, removing volumes, removing containers chosen
// at run time, and containers that get the host itself are not.
var containers = &Pack{
	Name:     "containers",
	Programs: []string{"docker", "podman", "nerdctl", "docker-compose"},
	ValueFlags: []string{"-H", "--host", "--context", "-c", "--config", "--log-level", "-f", "--file", "-p", "--project-name",
		"--project-directory", "--env-file", "-e", "--env", "-w", "--workdir", "--name", "-u", "--user", "--network",
		"--entrypoint", "-t", "--tag", "--platform", "-l", "--label", "--format", "--filter"},
	Rules: []Rule{
		{
			ID: policy.RuleDestructiveContainer, Name: "docker-prune",
			Reason:  "deletes every unused container, image, network or volume on the machine, other projects' too",
			Instead: "remove the one container or image you made by name (docker rm NAME, docker rmi IMAGE)",
			Match: func(c Call) bool {
				return c.Sub("system", "prune") || c.Sub("volume", "prune") || c.Sub("volume", "rm") || c.Sub("volume", "remove") ||
					c.Sub("container", "prune") || c.Sub("image", "prune") || c.Sub("network", "prune") || c.Sub("builder", "prune") ||
					c.Sub("buildx", "prune")
			},
			Deny:  []string{"docker system prune -af --volumes", "docker system prune -f", "docker volume rm pgdata", "docker volume prune", "podman system prune --all"},
			Allow: []string{"docker ps -a", "docker volume ls", "docker system df", "docker rm web-test", "docker rmi app:dev"},
		},
		{
			ID: policy.RuleDestructiveContainer, Name: "docker-rm-dynamic",
			Reason:  "removes containers or images chosen at run time, typically all of them",
			Instead: "remove the containers you started by name (docker rm -f NAME)",
			Match: func(c Call) bool {
				switch {
				case c.Sub("rm"), c.Sub("rmi"), c.Sub("kill"):
					return c.DynamicAfter(1)
				case c.Sub("container", "rm"), c.Sub("image", "rm"), c.Sub("container", "kill"):
					return c.DynamicAfter(2)
				}
				return false
			},
			Deny: []string{"docker rm -f $(docker ps -aq)", "docker rmi -f $(docker images -q)", "docker kill $(docker ps -q)",
				"docker ps -aq | xargs docker rm -f", "docker container rm $(docker container ls -aq)"},
			Allow: []string{"docker rm -f web-test", "docker ps -aq", "docker --context \"$CTX\" rm -f web-test"},
		},
		{
			ID: policy.RuleDestructiveContainer, Name: "compose-down-volumes",
			Reason:  "deletes the project's volumes, and the data in them",
			Instead: "docker compose down (without -v) stops the project and keeps its data",
			Match: func(c Call) bool {
				down := c.Program == "docker-compose" && c.Sub("down") || c.Sub("compose", "down")
				return down && c.Has("-v", "--volumes")
			},
			Deny:  []string{"docker compose down -v", "docker-compose down --volumes", "docker compose -f dev.yml down -v --remove-orphans"},
			Allow: []string{"docker compose down", "docker compose up -d", "docker-compose ps"},
		},
		{
			ID: policy.RuleDestructiveContainer, Name: "container-host-access",
			Reason:  "starts a container with the host's root file system, the Docker socket, or full privileges: it can change anything on the machine",
			Instead: "mount only the worktree (-v \"$PWD\":/src) and run without --privileged",
			Match: func(c Call) bool {
				if !(c.Sub("run") || c.Sub("create") || c.Sub("container", "run") || c.Sub("container", "create") ||
					c.Program == "docker-compose" && c.Sub("run") || c.Sub("compose", "run")) {
					return false
				}
				if c.Has("--privileged") {
					return true
				}
				for _, flag := range []string{"--pid", "--ipc", "--userns", "--uts"} {
					if v, ok := c.Value(flag); ok && v == "host" {
						return true
					}
				}
				for i, a := range c.Args {
					var v string
					switch {
					case (a == "-v" || a == "--volume" || a == "--mount") && i+1 < len(c.Args):
						v = c.Args[i+1]
					case strings.HasPrefix(a, "--volume="), strings.HasPrefix(a, "--mount="):
						_, v, _ = strings.Cut(a, "=")
					case strings.HasPrefix(a, "-v") && len(a) > 2:
						v = strings.TrimPrefix(a[2:], "=")
					default:
						continue
					}
					if hostDanger(v) {
						return true
					}
				}
				return false
			},
			Deny: []string{"docker run -v /:/host alpine chroot /host", "docker run --rm -it --privileged ubuntu bash",
				"docker run --volume=/:/mnt busybox", "docker run --mount type=bind,source=/,target=/host alpine",
				"docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli docker ps", "podman run --pid=host alpine"},
			Allow: []string{"docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go test ./...", "docker run --rm alpine echo hi",
				"docker run -v cache:/root/.cache app", "docker compose run --rm api go test ./..."},
		},
	},
}

// hostDanger reports whether a -v/--mount value binds the host's root or
// the container engine's socket.
func hostDanger(v string) bool {
	src := v
	if strings.Contains(v, "source=") || strings.Contains(v, "src=") {
		src = ""
		for _, kv := range strings.Split(v, ",") {
			if s, ok := strings.CutPrefix(kv, "source="); ok {
				src = s
			}
			if s, ok := strings.CutPrefix(kv, "src="); ok {
				src = s
			}
		}
	} else if i := strings.IndexByte(v, ':'); i >= 0 {
		src = v[:i]
	}
	if src != "" && strings.Trim(src, "/") == "" {
		return true // the host's root
	}
	return strings.HasSuffix(src, "docker.sock") || strings.HasSuffix(src, "podman.sock") ||
		strings.HasSuffix(src, "containerd.sock")
}
