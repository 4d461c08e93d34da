package packs

import (
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
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
			Reason:  "starts a container with full privileges (--privileged, every capability or CAP_SYS_ADMIN) or the host's process, IPC, UTS or user namespace: it can change anything on the machine",
			Instead: "run without --privileged, --cap-add ALL or SYS_ADMIN and the host's namespaces, and mount only the worktree (-v \"$PWD\":/src)",
			Match: func(c Call) bool {
				if !startsContainer(c) {
					return false
				}
				c = runOptions(c)
				if c.Has("--privileged") {
					return true
				}
				for _, flag := range []string{"--pid", "--ipc", "--userns", "--uts"} {
					if v, ok := c.Value(flag); ok && v == "host" {
						return true
					}
				}
				// Every capability, or CAP_SYS_ADMIN (mount, namespaces):
				// --privileged in all but name.
				for i, a := range c.Args {
					v, ok := strings.CutPrefix(a, "--cap-add=")
					if a == "--cap-add" && i+1 < len(c.Args) {
						v, ok = c.Args[i+1], true
					}
					v = strings.TrimPrefix(strings.ToUpper(v), "CAP_")
					if ok && (v == "ALL" || v == "SYS_ADMIN") {
						return true
					}
				}
				return false
			},
			// Which host paths are too much (the root, the home directory,
			// the engine's socket …) is the rule's judgement on the resolved
			// path: guard/rules/destructive_container.go.
			Mounts: bindSources,
			Deny: []string{"docker run -v /:/host alpine chroot /host", "docker run --rm -it --privileged ubuntu bash",
				"docker run --volume=/:/mnt busybox", "docker run --mount type=bind,source=/,target=/host alpine",
				"docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli docker ps", "podman run --pid=host alpine",
				"docker run --cap-add=ALL alpine", "docker run --cap-add sys_admin alpine mount /dev/sda1 /mnt", "docker run -v \"$HOME\":/h alpine",
				"docker run --mount type=bind,src=/etc,dst=/etc alpine", "ssh build-host docker run -v /:/h alpine"},
			Allow: []string{"docker run --rm -v \"$PWD\":/src -w /src golang:1.26 go test ./...", "docker run --rm alpine echo hi",
				"docker run -v cache:/root/.cache app", "docker compose run --rm api go test ./...", "docker run --cap-add=NET_ADMIN alpine ip a",
				"docker run -v /etc/localtime:/etc/localtime:ro app", "docker run -v \"$(pwd)\"/testdata:/data alpine", "docker run -v /tmp/build:/out app",
				"docker run --rm -e MODE=ci alpine grep -v --privileged /:/x notes.txt"},
		},
	},
}

// startsContainer: docker run or create, and compose run.
func startsContainer(c Call) bool {
	return c.Sub("run") || c.Sub("create") || c.Sub("container", "run") || c.Sub("container", "create") ||
		c.Program == "docker-compose" && c.Sub("run") || c.Sub("compose", "run")
}

// runOptions narrows a docker run/create (or compose run) to its own
// options: the words after the subcommand up to the image (or service).
// What follows the image is the container's command (docker run alpine
// grep -v x), not docker's. A word only known at run time may be an
// option, so it does not end them.
func runOptions(c Call) Call {
	skip := 1
	if c.Sub("container") || c.Sub("compose") {
		skip = 2
	}
	from, ok := c.afterPos(skip)
	if !ok {
		return Call{Program: c.Program}
	}
	to := len(c.Words)
	for i := from; i < len(c.Words); i++ {
		a := c.Args[i]
		if !c.Words[i].Static() {
			continue
		}
		if a == "--" || !strings.HasPrefix(a, "-") || a == "-" {
			to = i
			break
		}
		if !strings.Contains(a, "=") && runValueFlags()[a] {
			i++
		}
	}
	return Call{Program: c.Program, Words: c.Words[from:to], Args: c.Args[from:to]}
}

// runValueFlags are docker run's (and compose run's) options that take a
// separate value.
var runValueFlags = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(`-a --attach --add-host --annotation --blkio-weight --blkio-weight-device --cap-add --cap-drop
		--cgroup-parent --cgroupns --cidfile --cpu-count --cpu-percent --cpu-period --cpu-quota --cpu-rt-period --cpu-rt-runtime
		-c --cpu-shares --cpus --cpuset-cpus --cpuset-mems --detach-keys --device --device-cgroup-rule --device-read-bps
		--device-read-iops --device-write-bps --device-write-iops --dns --dns-option --dns-search --domainname --entrypoint
		-e --env --env-file --expose --gpus --group-add --health-cmd --health-interval --health-retries --health-start-interval
		--health-start-period --health-timeout -h --hostname --ip --ip6 --ipc --isolation --kernel-memory -l --label --label-file
		--link --link-local-ip --log-driver --log-opt --mac-address -m --memory --memory-reservation --memory-swap
		--memory-swappiness --mount --name --network --net --network-alias --oom-score-adj --pid --pids-limit --platform
		-p --publish --pull --restart --runtime --security-opt --shm-size --stop-signal --stop-timeout --storage-opt --sysctl
		--tmpfs --ulimit -u --user --userns --uts -v --volume --volume-driver --volumes-from -w --workdir --profile`) {
		m[f] = true
	}
	return m
})

// bindSources returns the host paths a starting container gets: the
// source of every -v/--volume that names a path (not a named volume) and
// of every --mount of type bind, as words. A source only known at run
// time stays a dynamic word.
func bindSources(c Call) []shell.Word {
	if !startsContainer(c) {
		return nil
	}
	c = runOptions(c)
	var out []shell.Word
	for i, w := range c.Words {
		if !w.Static() && !w.Dynamic { // a glob: not an option
			continue
		}
		a := w.Template()
		var v string
		mount := false
		switch {
		case (a == "-v" || a == "--volume" || a == "--mount") && i+1 < len(c.Words):
			v, mount = c.Words[i+1].Template(), a == "--mount"
			w = c.Words[i+1]
		case strings.HasPrefix(a, "--volume="):
			v = strings.TrimPrefix(a, "--volume=")
		case strings.HasPrefix(a, "--mount="):
			v, mount = strings.TrimPrefix(a, "--mount="), true
		case strings.HasPrefix(a, "-v") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			v = strings.TrimPrefix(a[2:], "=")
		default:
			continue
		}
		src, ok := "", false
		if mount {
			src, ok = mountSource(v)
		} else {
			src, _, _ = strings.Cut(v, ":")
			ok = hostPathLike(src)
		}
		if !ok {
			continue
		}
		if strings.Contains(src, shell.UnknownMark) {
			out = append(out, shell.Word{Dynamic: true, Src: w.Src, Tmpl: src})
			continue
		}
		out = append(out, shell.Word{Text: src, Src: w.Src})
	}
	return out
}

// mountSource returns the source of a --mount value that binds a host
// path: type=bind, or a source that is a path.
func mountSource(v string) (string, bool) {
	src, bind := "", false
	for _, kv := range strings.Split(v, ",") {
		k, val, _ := strings.Cut(kv, "=")
		switch k {
		case "source", "src":
			src = val
		case "type":
			bind = val == "bind"
		}
	}
	return src, src != "" && (bind || hostPathLike(src))
}

// hostPathLike: a -v source that is a host path, not a named volume
// (docker takes a name without a slash for a volume). A source only known
// at run time may be either.
func hostPathLike(src string) bool {
	return strings.HasPrefix(src, "/") || strings.HasPrefix(src, ".") || strings.HasPrefix(src, "~") ||
		strings.HasPrefix(src, shell.UnknownMark)
}
