package guard

import (
	"encoding/json"
	"path"
	"strings"
	"sync"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// pkgRequest is what one install command fetches.
type pkgRequest struct {
	eco   string   // the [packages] key: npm, pip, go, cargo, gem, system
	names []string // packages named on the command line
	local []string // the project's own installed tools it runs (npx tsc)
	hint  string   // how to install what the project declares instead
	own   string   // the command that runs the project's own copy instead (ownCopy)
}

var npmValueOpts = sync.OnceValue(func() map[string]bool {
	return shell.Longs("prefix", "workspace", "w", "registry", "tag", "omit", "include", "cache", "userconfig", "globalconfig",
		"loglevel", "install-strategy", "before", "cpu", "os", "libc", "access", "otp", "scope", "cwd", "dir", "C", "filter", "F", "package", "p", "call", "c")
})

var pipValueOpts = sync.OnceValue(func() map[string]bool {
	return shell.Longs("requirement", "r", "constraint", "c", "index-url", "i", "extra-index-url", "find-links", "f", "target", "t",
		"prefix", "root", "src", "upgrade-strategy", "platform", "python-version", "implementation", "abi", "only-binary", "no-binary",
		"progress-bar", "log", "cache-dir", "trusted-host", "proxy", "retries", "timeout", "exists-action", "cert", "client-cert",
		"config-settings", "C", "global-option", "report", "python", "group", "optional", "extra", "index", "default-index", "branch",
		"tag", "rev", "from", "with", "w", "spec", "channel", "n", "name", "p", "e", "editable", "python-platform")
})

func (a *analyzer) packageManager(inv *shell.Invocation) {
	defer a.packageRuns(inv)
	for _, r := range a.packageRequests(inv) {
		a.judge(inv, r.effect(inv.Name))
	}
}

// reportPackages hands an install of names to the package-install rule
// (guard/rules/package_install.go), which holds the allowlist check.
func (a *analyzer) reportPackages(inv *shell.Invocation, eco string, names []string, hint string) {
	a.judge(inv, pkgRequest{eco: eco, names: names, hint: hint}.effect(inv.Name))
}

// effect is the install r describes, run by the command named by.
func (r pkgRequest) effect(by string) effect.PackageInstall {
	ps := make([]effect.Package, 0, len(r.names)+len(r.local))
	for _, n := range r.names {
		ps = append(ps, effect.Package{Name: n})
	}
	for _, n := range r.local {
		ps = append(ps, effect.Package{Name: n, Local: true})
	}
	return effect.PackageInstall{By: by, Ecosystem: r.eco, Packages: ps, Declared: r.hint, Own: r.own}
}

// packageRuns checks the command that npx, npm exec, pnpm exec/dlx, yarn
// exec/dlx and bunx run after fetching: npx rimraf ~ deletes the home dir.
func (a *analyzer) packageRuns(inv *shell.Invocation) {
	args := inv.Args()
	switch inv.Name {
	case "npx", "pnpx", "bunx":
		a.npxRun(inv, args, inv.Name)
	case "go":
		a.goOutput(inv)
	case "npm", "pnpm", "yarn", "bun":
		sub, rest := splitSub(args, npmValueOpts())
		switch {
		case inv.Name == "npm" && (sub == "exec" || sub == "x"),
			inv.Name == "pnpm" && sub == "dlx", inv.Name == "yarn" && sub == "dlx", inv.Name == "bun" && sub == "x":
			a.npxRun(inv, rest, inv.Name+" "+sub)
		case sub == "exec" && inv.Name != "npm":
			a.x.Reinvoke(inv, rest, inv.Name+" exec")
		case inv.Name == "yarn" && sub == "workspace" && len(rest) > 1:
			a.x.Reinvoke(inv, append([]shell.Word{{Text: "yarn"}}, rest[1:]...), "yarn workspace")
		}
	}
}

// splitSub returns the subcommand (the first operand) and what follows it.
func splitSub(args []shell.Word, valueOpts map[string]bool) (string, []shell.Word) {
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.Dynamic {
			return "?", args[i:]
		}
		if strings.HasPrefix(x.Text, "-") {
			name := strings.TrimLeft(x.Text, "-")
			if !strings.Contains(name, "=") && valueOpts[name] {
				i++
			}
			continue
		}
		return x.Text, args[i+1:]
	}
	return "", nil
}

// operandsOf returns the operands of args, skipping options and their values.
func operandsOf(args []shell.Word, valueOpts map[string]bool) []shell.Word {
	var out []shell.Word
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.Dynamic {
			out = append(out, x)
			continue
		}
		if x.Text == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if strings.HasPrefix(x.Text, "-") && x.Text != "-" {
			name := strings.TrimLeft(x.Text, "-")
			if !strings.Contains(name, "=") && valueOpts[name] {
				i++
			}
			continue
		}
		out = append(out, x)
	}
	return out
}

func optValues(args []shell.Word, names ...string) []shell.Word {
	var out []shell.Word
	for i, x := range args {
		for _, n := range names {
			flag := "--" + n
			if len(n) == 1 {
				flag = "-" + n
			}
			if x.Text == flag && i+1 < len(args) {
				out = append(out, args[i+1])
			} else if v, ok := strings.CutPrefix(x.Text, flag+"="); ok {
				out = append(out, shell.Word{Text: v, Src: x.Src})
			}
		}
	}
	return out
}

func hasFlag(args []shell.Word, flags ...string) bool {
	for _, x := range args {
		for _, f := range flags {
			if x.Text == f {
				return true
			}
		}
	}
	return false
}

func (a *analyzer) packageRequests(inv *shell.Invocation) []pkgRequest {
	args := inv.Args()
	names := func(eco string, ops []shell.Word, clean func(string) (string, bool)) []string {
		var out []string
		for _, x := range ops {
			if x.Dynamic {
				out = append(out, x.Show())
				continue
			}
			if n, ok := clean(x.Text); ok {
				out = append(out, n)
			}
		}
		return out
	}
	req := func(eco, hint string, ns []string) []pkgRequest {
		if len(ns) == 0 {
			return nil
		}
		return []pkgRequest{{eco: eco, names: ns, hint: hint}}
	}
	switch inv.Name {
	case "npm":
		sub, rest := splitSub(args, npmValueOpts())
		switch sub {
		case "install", "i", "in", "ins", "inst", "insta", "instal", "isnt", "isnta", "isntal", "isntall", "add":
			return req("npm", "npm ci, or npm install without package names", names("npm", operandsOf(rest, npmValueOpts()), npmName))
		case "exec", "x":
			return a.npxRequest("npm", rest)
		case "init", "create":
			ops := operandsOf(rest, npmValueOpts())
			if len(ops) > 0 {
				return req("npm", "", names("npm", ops[:1], createName))
			}
		}
	case "npx", "bunx":
		return a.npxRequest(map[string]string{"npx": "npm", "bunx": "bun"}[inv.Name], args)
	case "pnpx":
		return a.withOwnCopy(req("npm", "", firstName(args, npmValueOpts(), npmName)), "pnpm", args) // pnpx is pnpm dlx: it always downloads
	case "yarn":
		sub, rest := splitSub(args, npmValueOpts())
		switch sub {
		case "add":
			return req("npm", "yarn install", names("npm", operandsOf(rest, npmValueOpts()), npmName))
		case "global":
			if s2, r2 := splitSub(rest, npmValueOpts()); s2 == "add" {
				return req("npm", "", names("npm", operandsOf(r2, npmValueOpts()), npmName))
			}
		case "dlx":
			ops := operandsOf(rest, npmValueOpts())
			ns := names("npm", optValues(rest, "p", "package"), npmName)
			if len(ns) == 0 && len(ops) > 0 {
				return a.withOwnCopy(req("npm", "", names("npm", ops[:1], npmName)), "yarn", rest)
			}
			return req("npm", "", ns)
		case "create":
			return req("npm", "", names("npm", operandsOf(rest, npmValueOpts())[:min(1, len(operandsOf(rest, npmValueOpts())))], createName))
		}
	case "pnpm", "bun":
		sub, rest := splitSub(args, npmValueOpts())
		switch sub {
		case "add", "a":
			return req("npm", inv.Name+" install", names("npm", operandsOf(rest, npmValueOpts()), npmName))
		case "install", "i":
			return req("npm", inv.Name+" install without package names", names("npm", operandsOf(rest, npmValueOpts()), npmName))
		case "dlx", "x":
			ops := operandsOf(rest, npmValueOpts())
			if len(ops) > 0 {
				return a.withOwnCopy(req("npm", "", names("npm", ops[:1], npmName)), inv.Name, rest)
			}
		case "create":
			ops := operandsOf(rest, npmValueOpts())
			if len(ops) > 0 {
				return req("npm", "", names("npm", ops[:1], createName))
			}
		}
	case "pip", "pip3":
		sub, rest := splitSub(args, pipValueOpts())
		if sub == "install" {
			return req("pip", "pip install -r requirements.txt, or pip install -e .", a.pipNames(rest))
		}
	case "uv":
		sub, rest := splitSub(args, pipValueOpts())
		switch sub {
		case "pip":
			if s2, r2 := splitSub(rest, pipValueOpts()); s2 == "install" {
				return req("pip", "uv pip install -r requirements.txt, or uv sync", a.pipNames(r2))
			}
		case "add":
			return req("pip", "uv sync", a.pipNames(rest))
		case "tool":
			if s2, r2 := splitSub(rest, pipValueOpts()); s2 == "install" || s2 == "run" {
				return req("pip", "", append(firstName(r2, pipValueOpts(), pyName), a.pipNames(optValues(r2, "with", "w", "from"))...))
			}
		case "run":
			return req("pip", "uv run without --with", a.pipNames(optValues(rest, "with", "w")))
		}
	case "uvx":
		ns := firstName(args, pipValueOpts(), pyName)
		if from := optValues(args, "from"); len(from) > 0 {
			ns = a.pipNames(from)
		}
		return req("pip", "", append(ns, a.pipNames(optValues(args, "with", "w"))...))
	case "poetry", "pdm", "rye":
		sub, rest := splitSub(args, pipValueOpts())
		if sub == "self" {
			sub, rest = splitSub(rest, pipValueOpts())
		}
		if sub == "add" {
			return req("pip", inv.Name+" install", a.pipNames(rest))
		}
	case "pipx":
		sub, rest := splitSub(args, pipValueOpts())
		switch sub {
		case "install", "run":
			if spec := optValues(rest, "spec"); len(spec) > 0 {
				return req("pip", "", a.pipNames(spec))
			}
			return req("pip", "", firstName(rest, pipValueOpts(), pyName))
		case "inject":
			ops := operandsOf(rest, pipValueOpts())
			if len(ops) > 1 {
				return req("pip", "", a.pipNames(ops[1:]))
			}
		}
	case "conda", "mamba", "micromamba":
		sub, rest := splitSub(args, pipValueOpts())
		if sub == "install" || sub == "create" {
			return req("pip", inv.Name+" env update --file environment.yml", names("pip", operandsOf(rest, pipValueOpts()), pyName))
		}
	case "go":
		return a.goRequests(args)
	case "composer":
		sub, rest := splitSub(args, shell.Longs("working-dir", "d"))
		if sub == "require" || sub == "global" {
			return req("other", "composer install (dependencies from composer.json)", prefixed("composer", names("other", operandsOf(rest, nil), plainComposer)))
		}
	case "dotnet":
		if len(args) >= 3 && args[0].Text == "add" {
			for i, x := range args[1:] {
				if x.Text == "package" && i+2 < len(args) {
					return req("other", "dotnet restore (packages from the project file)", prefixed("dotnet", names("other", args[i+2:i+3], plainName)))
				}
			}
		}
		if len(args) >= 2 && args[0].Text == "tool" && (args[1].Text == "install" || args[1].Text == "update") {
			return req("other", "dotnet tool restore", prefixed("dotnet", names("other", operandsOf(args[2:], shell.Longs("version", "add-source", "configfile", "tool-path", "framework")), plainName)))
		}
	case "cpanm", "cpan":
		return req("other", "cpanm --installdeps . (dependencies from cpanfile)", prefixed(inv.Name, names("other", operandsOf(args, shell.Longs("l", "local-lib", "L", "mirror")), plainName)))
	case "cargo":
		sub, rest := splitSub(args, cargoValueOpts())
		switch sub {
		case "add", "install", "binstall":
			if hasFlag(rest, "--list") {
				return nil
			}
			ns := names("cargo", operandsOf(rest, cargoValueOpts()), plainName)
			for _, g := range optValues(rest, "git") {
				ns = append(ns, g.Show())
			}
			if len(optValues(rest, "path")) > 0 && len(ns) == 0 {
				return nil
			}
			return req("cargo", "cargo build (dependencies from Cargo.toml)", ns)
		}
	case "gem":
		sub, rest := splitSub(args, gemValueOpts())
		if sub == "install" || sub == "i" {
			return req("gem", "bundle install", names("gem", operandsOf(rest, gemValueOpts()), plainName))
		}
	case "bundle", "bundler":
		sub, rest := splitSub(args, gemValueOpts())
		if sub == "add" {
			return req("gem", "bundle install", names("gem", operandsOf(rest, gemValueOpts()), plainName))
		}
	default:
		return a.systemRequests(inv.Name, args)
	}
	return nil
}

var (
	goValueOpts = sync.OnceValue(func() map[string]bool {
		return shell.Longs("modfile", "o", "C", "p", "tags", "ldflags", "gcflags", "asmflags", "mod", "exec", "overlay", "pkgdir", "toolexec", "pgo")
	})
	cargoValueOpts = sync.OnceValue(func() map[string]bool {
		return shell.Longs("features", "F", "package", "p", "rename", "registry", "target", "path", "git", "branch", "tag", "rev",
			"manifest-path", "version", "vers", "root", "bin", "example", "index", "j", "jobs", "profile", "config", "Z")
	})
	gemValueOpts = sync.OnceValue(func() map[string]bool {
		return shell.Longs("version", "v", "install-dir", "i", "bindir", "n", "source", "s", "platform", "file", "g", "group",
			"git", "branch", "path", "require", "github", "ref", "glob", "strict", "optimistic")
	})
	systemValueOpts = sync.OnceValue(func() map[string]bool {
		return shell.Longs("o", "option", "t", "target-release", "c", "config-file", "X", "repository", "virtual", "repo",
			"enablerepo", "disablerepo", "setopt", "installroot", "releasever", "root", "appdir", "channel")
	})
)

func (a *analyzer) systemRequests(tool string, args []shell.Word) []pkgRequest {
	var ops []shell.Word
	switch tool {
	case "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "port", "snap":
		sub, rest := splitSub(args, systemValueOpts())
		if sub != "install" && sub != "in" && sub != "reinstall" && sub != "groupinstall" && sub != "localinstall" {
			return nil
		}
		ops = operandsOf(rest, systemValueOpts())
	case "apk":
		sub, rest := splitSub(args, systemValueOpts())
		if sub != "add" {
			return nil
		}
		ops = operandsOf(rest, systemValueOpts())
	case "brew":
		sub, rest := splitSub(args, systemValueOpts())
		if sub != "install" && sub != "reinstall" && sub != "tap" {
			return nil
		}
		ops = operandsOf(rest, systemValueOpts())
	case "pacman":
		sync := false
		for _, x := range args {
			if strings.HasPrefix(x.Text, "-S") || x.Text == "--sync" {
				sync = true
			}
		}
		if !sync {
			return nil
		}
		ops = operandsOf(args, systemValueOpts())
	case "nix-env":
		if !hasFlag(args, "-i", "--install", "-iA") {
			return nil
		}
		ops = operandsOf(args, systemValueOpts())
	default:
		return nil
	}
	var ns []string
	for _, x := range ops {
		if x.Dynamic {
			ns = append(ns, x.Show())
			continue
		}
		if isLocalPath(x.Text) {
			continue
		}
		ns = append(ns, x.Text)
	}
	if len(ns) == 0 {
		return nil
	}
	return []pkgRequest{{eco: "system", names: ns}}
}

func (a *analyzer) goRequests(args []shell.Word) []pkgRequest {
	if len(args) == 0 {
		return nil
	}
	sub, rest := args[0].Text, args[1:]
	var ns []string
	switch sub {
	case "get":
		for _, x := range operandsOf(rest, goValueOpts()) {
			if x.Dynamic {
				ns = append(ns, x.Show())
				continue
			}
			name, ver, _ := strings.Cut(x.Text, "@")
			if ver == "none" || isLocalPath(name) || name == "all" || name == "" {
				continue
			}
			ns = append(ns, name)
		}
	case "install", "run":
		ops := operandsOf(rest, goValueOpts())
		if sub == "run" && len(ops) > 0 {
			ops = ops[:1] // the rest are the program's arguments
		}
		for _, x := range ops {
			name, _, versioned := strings.Cut(x.Text, "@")
			if versioned && !isLocalPath(name) {
				ns = append(ns, name)
			}
		}
	}
	if len(ns) == 0 {
		return nil
	}
	return []pkgRequest{{eco: "go", names: ns, hint: "go mod download, or go install ./cmd/... for the module's own commands"}}
}

// npxNames returns the packages npx/npm exec would download: those named
// with --package, a version (x@1), or forced with --yes. A bare `npx tool`
// runs the project's own installed binary: that is local.
func (a *analyzer) npxNames(args []shell.Word) (fetched []string, local string) {
	var ns []string
	own := npxOwnArgs(args)
	for _, p := range optValues(own, "p", "package") {
		if n, ok := npmName(p.Text); ok {
			ns = append(ns, n)
		}
	}
	if len(ns) > 0 {
		return ns, ""
	}
	ops := operandsOf(args, npmValueOpts())
	if len(ops) == 0 {
		return nil, ""
	}
	first := ops[0]
	if first.Dynamic {
		return []string{first.Show()}, ""
	}
	name, ok := npmName(first.Text)
	if !ok {
		return nil, ""
	}
	versioned := strings.LastIndex(first.Text, "@") > 0
	if versioned || strings.HasPrefix(name, "create-") || strings.Contains(name, "/create-") {
		return []string{name}, ""
	}
	if hasFlag(own, "--no", "--no-install") {
		return nil, "" // npx --no never downloads: it runs a local bin or fails
	}
	// Without a terminal npx assumes --yes and downloads whatever is not a
	// local bin, so only the project's own tools (node_modules/.bin) and
	// those npm installed globally run without the allowlist; --yes only
	// skips the prompt, a local bin still runs.
	if a.localNodeBin(name) || a.globalNodeBin(name) {
		return nil, name
	}
	return []string{name}, ""
}

// npxOwnArgs are npx's own options: those before the command it runs.
// The words after it are the command's (npx tsc --noEmit -p tsconfig.json:
// -p is tsc's --project, not npx's --package).
func npxOwnArgs(args []shell.Word) []shell.Word {
	for i := 0; i < len(args); i++ {
		x := args[i]
		if x.Dynamic || x.Text == "--" || x.Text == "-" || !strings.HasPrefix(x.Text, "-") {
			return args[:i]
		}
		if name := strings.TrimLeft(x.Text, "-"); !strings.Contains(name, "=") && npmValueOpts()[name] {
			i++
		}
	}
	return args
}

// globalNodeBin reports whether NAME is a tool npm installed globally (npm
// install -g): an executable in a PATH directory that is an npm prefix's
// bin (PREFIX/bin beside PREFIX/lib/node_modules), which npx runs instead
// of downloading the package of that name. A program of the same name
// that npm did not install (/usr/bin/tsc) does not count: npx would fetch
// the registry's "tsc".
func (a *analyzer) globalNodeBin(name string) bool {
	if a.env.Repo == nil || strings.Contains(name, "/") {
		return false
	}
	for _, dir := range a.env.PathDirs {
		if !path.IsAbs(dir) || a.underRoot(dir) || a.writable(dir) {
			continue // a directory the agent writes proves nothing
		}
		if a.env.Repo.Exists(dir+"/"+name) && a.env.Repo.Exists(path.Dir(dir)+"/lib/node_modules") {
			return true
		}
	}
	return false
}

// npxRequest is what npx (npm exec, bunx) fetches, or the project's own
// installed tool it runs instead. manager is npx's (npm) or bunx's (bun).
func (a *analyzer) npxRequest(manager string, args []shell.Word) []pkgRequest {
	ns, local := a.npxNames(args)
	if len(ns) == 0 && local == "" {
		return nil
	}
	r := pkgRequest{eco: "npm", names: ns}
	if local != "" {
		r.local = []string{local}
		return []pkgRequest{r}
	}
	if len(optValues(npxOwnArgs(args), "p", "package")) > 0 {
		return []pkgRequest{r} // the command it runs need not be the package's name
	}
	return a.withOwnCopy([]pkgRequest{r}, manager, args)
}

// withOwnCopy adds to a runner's fetch of one package (pnpm dlx eslint,
// npx eslint) the command that runs the project's own copy instead, when
// the project declares the package (ownCopy). args are the runner's words
// from the package's name on, options before it allowed.
func (a *analyzer) withOwnCopy(rs []pkgRequest, manager string, args []shell.Word) []pkgRequest {
	if len(rs) != 1 || len(rs[0].names) != 1 {
		return rs
	}
	ops := operandsOf(args, npmValueOpts())
	if len(ops) == 0 {
		return rs
	}
	for i := range args {
		if args[i].Text == ops[0].Text && !args[i].Dynamic {
			rs[0].own = a.ownCopy(manager, rs[0].names[0], args[i+1:])
			break
		}
	}
	return rs
}

// ownRunners run a package's bin from the project's node_modules without
// ever fetching it, and installAll installs what package.json declares.
var (
	ownRunners = map[string]string{"npm": "npx --no-install", "pnpm": "pnpm exec", "yarn": "yarn"}
	installAll = map[string]string{"npm": "npm install", "pnpm": "pnpm install", "yarn": "yarn install"}
)

// ownCopy is the command that runs the project's own copy of the npm
// package name with args, through manager (npm, pnpm, yarn), instead of
// fetching one: the package.json nearest the working directory declares
// it (dependencies, devDependencies, optionalDependencies). A copy not
// installed yet is installed first with the rest of what the project
// declares ("pnpm install, then pnpm exec eslint ."). "" when the project
// does not declare it, that cannot be read, or the command the package
// installs cannot be told (a scoped package not installed yet).
func (a *analyzer) ownCopy(manager, name string, args []shell.Word) string {
	run, ok := ownRunners[manager]
	if !ok || a.env.ReadFile == nil {
		return ""
	}
	_, text, st := a.findUp(a.env.Cwd, "package.json")
	if st != fileKnown {
		return ""
	}
	var pkg struct {
		Deps    map[string]any `json:"dependencies"`
		DevDeps map[string]any `json:"devDependencies"`
		OptDeps map[string]any `json:"optionalDependencies"`
	}
	if json.Unmarshal([]byte(text), &pkg) != nil {
		return ""
	}
	_, dep := pkg.Deps[name]
	_, dev := pkg.DevDeps[name]
	_, opt := pkg.OptDeps[name]
	if !dep && !dev && !opt {
		return ""
	}
	bin := path.Base(name) // a package's command is usually its name; a scope's, its last part
	cmd := run + " " + bin
	for _, x := range args {
		cmd += " " + spelled(x)
	}
	switch {
	case a.localNodeBin(bin):
		return cmd
	case strings.HasPrefix(name, "@"):
		return "" // not installed: its command's name is not known
	}
	return installAll[manager] + ", then " + cmd
}

// spelled is a word as the command wrote it, so that a command made of
// such words reads the same: its source, else its text, quoted when the
// shell would split or expand it.
func spelled(x shell.Word) string {
	if x.Src != "" {
		return x.Src
	}
	if x.Text != "" && strings.Trim(x.Text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./:=@%+,-") == "" {
		return x.Text
	}
	return "'" + strings.ReplaceAll(x.Text, "'", `'\''`) + "'"
}

// localNodeBin reports whether the worktree (or a parent directory up to
// it, as npm searches) has node_modules/.bin/NAME installed.
func (a *analyzer) localNodeBin(name string) bool {
	if a.env.Repo == nil || strings.Contains(name, "/") {
		return false
	}
	for dir := a.env.Cwd; dir != "" && strings.HasPrefix(dir, a.env.Root); dir = path.Dir(dir) {
		if a.env.Repo.Exists(dir + "/node_modules/.bin/" + name) {
			return true
		}
		if dir == a.env.Root || dir == "/" {
			break
		}
	}
	return false
}

// npmName strips a version from an npm package spec; local paths and
// tarballs are not packages to allow.
func npmName(s string) (string, bool) {
	if isLocalPath(s) || strings.HasPrefix(s, "file:") || strings.HasPrefix(s, "link:") || strings.HasPrefix(s, "workspace:") {
		return "", false
	}
	if strings.Contains(s, "://") || strings.HasPrefix(s, "git+") || strings.HasPrefix(s, "github:") {
		return s, true
	}
	if strings.HasPrefix(s, "@") {
		if i := strings.Index(s[1:], "@"); i >= 0 {
			return s[:i+1], !localVersion(s[i+2:])
		}
		return s, true
	}
	name, version, _ := strings.Cut(s, "@")
	return name, name != "" && !localVersion(version)
}

// localVersion reports whether an npm version spec names no registry
// package: a workspace of this repository (@x/y@workspace:*), a local
// directory or tarball, or a yarn portal.
func localVersion(v string) bool {
	for _, p := range []string{"workspace:", "file:", "link:", "portal:"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// createName turns `npm init x` into the create-x package it runs.
func createName(s string) (string, bool) {
	n, ok := npmName(s)
	if !ok {
		return "", false
	}
	if strings.HasPrefix(n, "@") {
		scope, rest, found := strings.Cut(n, "/")
		if !found {
			return scope + "/create", true
		}
		return scope + "/create-" + rest, true
	}
	return "create-" + n, true
}

var pyVersionSep = lazyRegexp(`[=<>!~;@ \[]`)

// pyName strips extras and version specifiers from a Python requirement.
func pyName(s string) (string, bool) {
	// A URL names a package from anywhere, whatever its file name says.
	if strings.Contains(s, "://") || strings.HasPrefix(s, "git+") {
		return s, true
	}
	local, _, _ := strings.Cut(s, "[") // .[dev]: the project itself, with extras
	if isLocalPath(local) || strings.HasSuffix(s, ".whl") || strings.HasSuffix(s, ".tar.gz") || strings.HasSuffix(s, ".zip") {
		return "", false
	}
	if i := pyVersionSep().FindStringIndex(s); i != nil {
		s = s[:i[0]]
	}
	return s, s != ""
}

// prefixed names packages of the "other" ecosystems as "tool:name".
func prefixed(tool string, ns []string) []string {
	for i, n := range ns {
		ns[i] = tool + ":" + n
	}
	return ns
}

func plainComposer(s string) (string, bool) {
	name, _, _ := strings.Cut(s, ":") // vendor/pkg:^1.0
	return plainName(name)
}

func plainName(s string) (string, bool) {
	if isLocalPath(s) {
		return "", false
	}
	name, _, _ := strings.Cut(s, "@")
	return name, name != ""
}

func (a *analyzer) pipNames(rest []shell.Word) []string {
	var out []string
	for _, r := range optValues(rest, "r", "requirement", "c", "constraint") {
		if r.Proc {
			out = append(out, r.Show()) // requirements made up on the spot
		}
	}
	for _, e := range optValues(rest, "e", "editable") {
		if n, ok := pyName(e.Text); ok {
			out = append(out, n)
		}
	}
	for _, x := range operandsOf(rest, pipValueOpts()) {
		if x.Dynamic {
			out = append(out, x.Show())
			continue
		}
		if n, ok := pyName(x.Text); ok {
			out = append(out, n)
		}
	}
	return out
}

func firstName(args []shell.Word, valueOpts map[string]bool, clean func(string) (string, bool)) []string {
	ops := operandsOf(args, valueOpts)
	if len(ops) == 0 {
		return nil
	}
	if ops[0].Dynamic {
		return []string{ops[0].Show()}
	}
	if n, ok := clean(ops[0].Text); ok {
		return []string{n}
	}
	return nil
}

func isLocalPath(s string) bool {
	return s == "." || s == ".." || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~")
}

// goOutput handles go build -o and go test -o, and the programs -exec and
// -toolexec make go run.
func (a *analyzer) goOutput(inv *shell.Invocation) {
	sub, rest := splitSub(inv.Args(), goValueOpts())
	switch sub {
	case "build", "test", "run", "install", "vet", "generate":
	default:
		return
	}
	for _, o := range goFlagValues(rest, "o") {
		a.writePath(inv, o, "go "+sub+" -o writes")
	}
	for _, x := range goFlagValues(rest, "exec", "toolexec") {
		a.x.RunScript(inv, x, "go "+sub+" -exec runs")
	}
}
