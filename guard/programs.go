package guard

import (
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/internal/httpreq"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
	"github.com/swarm-guard/swarm-guard/guard/packs"
)

// What runs for each program the guard knows. An invocation of program P
// goes through every check of the familyChecks table that names P, in the
// table's order, then through P's own handler in programHandlers (or, for
// a program with checks and no handler, genericCommand, which reads its
// operands as files). Both tables are plain data: no handler wraps
// another, so nothing depends on the order in which families register.
// TestProgramTable pins the chain of a few programs and that no program
// has two handlers of its own.

// familyCheck layers one family's knowledge over programs that may have a
// handler of their own: the forges' oversight over gh, exfiltration over
// curl, the tool packs over kubectl.
type familyCheck struct {
	what     string                    // the family, as a reader looks it up
	programs func() map[string]handler // what it runs for each program it judges
}

// familyChecks run in this order before a program's own handler.
var familyChecks = []familyCheck{
	{"tool packs (guard/packs)", packChecks},
	{"vendor packs' HTTP rules", forPrograms(httpreq.Clients, (*analyzer).vendorHTTP)},
	{"production deploys, under oversight (deploy.go)", forPrograms([]string{"vercel", "netlify", "fly", "flyctl", "railway", "firebase", "wrangler", "supabase",
		"render", "heroku", "convex", "serverless", "sls", "amplify"}, (*analyzer).deploy)},
	{"publishing, under oversight (publish.go)", forPrograms([]string{"npm", "pnpm", "yarn", "bun", "cargo", "twine", "poetry", "uv", "flit", "hatch", "gem",
		"docker", "podman", "buildah", "helm", "dotnet", "nuget", "vsce", "ovsx", "goreleaser", "lerna", "changeset",
		"mvn", "mvnw", "gradle", "gradlew", "semantic-release", "deno", "jsr"}, (*analyzer).publish)},
	{"forge CLIs, under oversight (forge.go)", forPrograms([]string{"gh", "hub", "glab"}, (*analyzer).forgeCLI)},
	{"removing the hook manager (selfguard.go)", forPrograms([]string{"npm", "yarn", "pnpm", "bun"}, (*analyzer).removesHookManager)},
	{"the guard's ledger refs (selfguard.go)", forPrograms([]string{"git"}, (*analyzer).ledgerRefs)},
	{"forged trailers (selfguard.go)", forPrograms([]string{"git"}, (*analyzer).forgedTrailer)},
	{"forge API requests (forge.go)", forPrograms([]string{"curl", "wget", "http", "https", "xh", "xhs"}, (*analyzer).forgeHTTP)},
	{"secrets sent over the network (exfil.go)", forPrograms([]string{"curl", "wget", "http", "https", "xh", "xhs", "nc", "ncat", "netcat", "socat", "telnet",
		"ssh", "scp", "sftp", "rsync", "ftp", "dig", "nslookup", "host", "drill", "ping", "gh",
		"openssl", "mail", "mailx", "s-nail", "sendmail", "mutt", "msmtp", "aws", "gsutil", "gcloud", "rclone",
		"docker", "podman"}, (*analyzer).exfilSink)},
	{"secrets packed or encoded (exfil.go)", forPrograms([]string{"gzip", "bzip2", "xz", "lzma", "zstd", "lz4", "compress", "pigz", "tar", "bsdtar", "zip", "7z", "7za",
		"openssl", "gpg", "age", "base64", "base32", "xxd", "od", "hexdump", "dd", "uuencode"}, (*analyzer).packedSecret)},
	{"package.json scripts (packagescripts.go)", forPrograms([]string{"npm", "pnpm", "yarn", "bun"}, (*analyzer).packageScripts)},
}

// forPrograms is a check that runs h for every program of names.
func forPrograms(names []string, h handler) func() map[string]handler {
	return func() map[string]handler {
		m := make(map[string]handler, len(names))
		for _, n := range names {
			m[n] = h
		}
		return m
	}
}

// packChecks is the tool packs' check of each program a pack judges.
func packChecks() map[string]handler {
	m := map[string]handler{}
	for prog, ps := range packs.ByProgram() {
		m[prog] = packCheck(ps)
	}
	return m
}

// programHandlers is each program's own handler, one per program: its
// model of the program's options and operands. dup lists a program
// named twice (TestProgramTable keeps it empty; the first stays).
func programHandlers() (m map[string]handler, dup []string) {
	m = map[string]handler{}
	add := func(h handler, names ...string) {
		for _, n := range names {
			if _, ok := m[n]; ok {
				dup = append(dup, n)
				continue
			}
			m[n] = h
		}
	}
	// Shell builtins that change the analysis state, and wrappers that
	// run another command (commands.go).
	add(cd, "cd", "pushd", "popd", "chdir")
	add(func(_ *analyzer, inv *shell.Invocation) { shell.Set(inv) }, "set")
	add(func(_ *analyzer, inv *shell.Invocation) { shell.Shift(inv) }, "shift")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Read(inv) }, "read", "mapfile", "readarray", "getopts")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.PrintfVar(inv) }, "printf")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Unset(inv) }, "unset")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Alias(inv) }, "alias")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Trap(inv) }, "trap")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Eval(inv) }, "eval")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Export(inv) }, "export", "declare", "typeset", "local", "readonly")
	add(source, "source", ".")
	add((*analyzer).plainWrapper, "exec", "command", "builtin", "nohup", "unbuffer", "catchsegv", "nice", "ionice", "timeout",
		"stdbuf", "setsid", "chrt", "taskset", "caffeinate", "busybox", "toybox", "chroot")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Sudo(inv) }, "sudo")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Doas(inv) }, "doas")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.EnvCmd(inv) }, "env")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Time(inv) }, "time")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Xargs(inv) }, "xargs")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Parallel(inv) }, "parallel")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Flock(inv) }, "flock")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Watch(inv) }, "watch")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.ScriptCmd(inv) }, "script")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Su(inv) }, "su")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Runuser(inv) }, "runuser")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Strace(inv) }, "strace", "ltrace")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Sudoedit(inv) }, "sudoedit")
	add(func(a *analyzer, inv *shell.Invocation) { a.x.Shell(inv) }, shell.Shells...)
	add((*analyzer).hashCmd, "hash")
	add((*analyzer).osascript, "osascript")
	add((*analyzer).git, "git")

	// Files: deleting, writing, copying, editing (fileops.go), and
	// readers whose first operand is a pattern or a program.
	add((*analyzer).rm, "rm", "srm", "trash", "trash-put")
	add((*analyzer).rmdir, "rmdir")
	add((*analyzer).unlink, "unlink")
	add((*analyzer).shred, "shred")
	add((*analyzer).truncate, "truncate")
	add((*analyzer).mv, "mv")
	add((*analyzer).cp, "cp")
	add((*analyzer).installCmd, "install")
	add((*analyzer).ln, "ln")
	add((*analyzer).rsync, "rsync")
	add((*analyzer).dd, "dd")
	add((*analyzer).tee, "tee")
	add((*analyzer).touch, "touch")
	add((*analyzer).chmodLike, "chmod", "chown", "chgrp", "chattr", "chflags")
	add((*analyzer).setfacl, "setfacl")
	add((*analyzer).ditto, "ditto")
	add((*analyzer).sed, "sed")
	add((*analyzer).find, "find")
	add((*analyzer).device, "mkfs", "mke2fs", "wipefs", "fdisk", "sfdisk", "parted", "mkswap", "blkdiscard")
	add((*analyzer).sgdisk, "sgdisk")
	add((*analyzer).gio, "gio")
	add((*analyzer).editor, "vim", "vi", "nvim", "ex", "view", "gvim")
	add((*analyzer).sshKeygen, "ssh-keygen")
	add((*analyzer).grepLike, "grep", "egrep", "fgrep", "rg", "ag", "ack", "zgrep", "git-grep")
	add((*analyzer).awk, "awk", "gawk", "mawk", "nawk")
	add((*analyzer).jq, "jq", "yq")

	// Archivers and commands with an output-file option (archive.go).
	add((*analyzer).tar, "tar", "bsdtar", "gtar")
	add((*analyzer).zip, "zip")
	add((*analyzer).unzip, "unzip")
	add((*analyzer).sevenZip, "7z", "7za", "7zz")
	add((*analyzer).sortCmd, "sort")
	add((*analyzer).uniq, "uniq")
	add((*analyzer).compiler, "gcc", "g++", "cc", "c++", "clang", "clang++", "ld", "rustc", "tcc")

	// Other machines, containers and downloads (remote.go).
	add((*analyzer).ssh, "ssh", "slogin")
	add((*analyzer).container, "docker", "podman", "nerdctl")
	add((*analyzer).kubectl, "kubectl", "oc")
	add((*analyzer).claude, "claude")
	add((*analyzer).scp, "scp", "sftp")
	add((*analyzer).powershell, "pwsh", "powershell")
	for n, fetches := range shell.Fetchers {
		if fetches && n != "scp" { // scp fetches too, but its local operands need its own handler
			add((*analyzer).fetcher, n)
		}
	}

	// Interpreters running code given inline or in a file (interp.go).
	add((*analyzer).python, "python", "pypy")
	add((*analyzer).node, "node", "nodejs")
	add((*analyzer).bun, "bun")
	add((*analyzer).deno, "deno")
	add((*analyzer).perlRuby, "perl", "ruby")
	add((*analyzer).php, "php")
	add((*analyzer).luaR, "lua", "luajit", "Rscript", "R")

	// Databases (sql.go).
	for n := range sqlClients() {
		add((*analyzer).sqlClient, n)
	}
	add((*analyzer).clickhouse, "clickhouse")
	add((*analyzer).cockroach, "cockroach")
	add((*analyzer).bigquery, "bq")
	add((*analyzer).dropdb, "dropdb")
	add((*analyzer).mysqladmin, "mysqladmin")
	add((*analyzer).redisCli, "redis-cli")
	add((*analyzer).mongo, "mongosh", "mongo")
	for n := range dbWipeTasks {
		add((*analyzer).dbTask, n) // ./manage.py and ./artisan run directly too
	}
	add((*analyzer).dbTask, "sequelize-cli")

	// Package managers (packages.go). uv, poetry, pdm, rye, conda,
	// mamba, micromamba and bundle are runners below: runCommand checks
	// their installs first.
	add((*analyzer).packageManager, "npm", "npx", "pnpx", "bunx", "yarn", "pnpm", "pip", "uvx", "pipx",
		"go", "cargo", "gem", "apt", "apt-get", "aptitude",
		"dnf", "yum", "microdnf", "apk", "brew", "pacman", "zypper", "port", "snap", "nix-env", "composer", "dotnet", "cpanm", "cpan")

	// Tools that run another command (runners.go) and task runners
	// that run what a file the agent can write says (taskrunners.go).
	for n := range runners() {
		add((*analyzer).runCommand, n)
	}
	add((*analyzer).screen, "screen")
	add((*analyzer).tmux, "tmux")
	add((*analyzer).atCmd, "at", "batch")
	add((*analyzer).nix, "nix")
	add((*analyzer).rimraf, "rimraf", "del-cli", "trash-cli")
	add((*analyzer).makeCmd, "make", "gmake")
	add((*analyzer).justCmd, "just")
	add((*analyzer).taskCmd, "task", "go-task")

	// The guard's own CLI and the hook managers (selfguard.go).
	add((*analyzer).swarmGuardCLI, "swarm-guard")
	add((*analyzer).hookManagerCLI, "lefthook", "pre-commit", "husky")

	// Commands that take their arguments as data or only look at names:
	// naming a secret file in them is not access.
	for n := range dataCommands() {
		add((*analyzer).dataCommand, n)
	}
	return m, dup
}

// programs is what runs for each program, in order: its checks, then its
// own handler (genericCommand when it has none). It is built on first
// use, not in package init: a hook call that analyses no shell command
// (a Write, an MCP tool) does not pay for the table.
var programs = sync.OnceValue(func() map[string][]handler {
	own, _ := programHandlers()
	chains := map[string][]handler{}
	for _, c := range familyChecks {
		for prog, h := range c.programs() {
			chains[prog] = append(chains[prog], h)
		}
	}
	for prog, hs := range chains {
		if h, ok := own[prog]; ok {
			chains[prog] = append(hs, h)
		} else {
			chains[prog] = append(hs, (*analyzer).genericCommand)
		}
	}
	for prog, h := range own {
		if _, ok := chains[prog]; !ok {
			chains[prog] = []handler{h}
		}
	}
	return chains
})
