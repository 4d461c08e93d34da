package install

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/swarm-guard/swarm-guard/hooks/clientconfig"
)

// With lefthook, every `lefthook install` and the re-sync lefthook does by
// itself after an edit of its config rewrite the hooks in .git/hooks and
// move any other hook to <hook>.old, where git no longer runs it. So
// swarm-guard's hooks live in lefthook's config instead: one command named
// swarm-guard per hook, between marker comments, running the binary found
// by the lookup rule (no machine path: the config is committed and is the
// same whoever runs install). lefthook then writes and re-writes the git
// hooks that run them. uninstall removes exactly the marked lines.

// lefthook 2's config names, in the order it looks for them: for each
// extension, each name; the main config first, else the local one alone.
var (
	lefthookMain  = []string{"lefthook", ".lefthook", filepath.Join(".config", "lefthook")}
	lefthookLocal = []string{"lefthook-local", ".lefthook-local", filepath.Join(".config", "lefthook-local")}
	lefthookExts  = []string{".yml", ".yaml", ".json", ".jsonc", ".toml"}
)

const (
	lefthookBegin   = "# >>> swarm-guard >>> added by swarm-guard install; swarm-guard uninstall removes it"
	lefthookEnd     = "# <<< swarm-guard <<<"
	lefthookCommand = "swarm-guard" // the command's name (a job's name) in each hook
)

// LefthookConfig is where swarm-guard's lefthook commands go.
type LefthookConfig struct {
	Path string // the YAML file swarm-guard edits (or creates: lefthook-local.yml)
	// Main is lefthook's main config when it is not Path (a TOML or JSON
	// lefthook.toml, with swarm-guard in lefthook-local.yml).
	Main string
	// Refusal, when set, is why swarm-guard cannot edit the config, and
	// what to do instead.
	Refusal string
}

func firstExisting(root string, names []string) string {
	for _, ext := range lefthookExts {
		for _, n := range names {
			p := filepath.Join(root, n+ext)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
				return p
			}
		}
	}
	return ""
}

func isYAMLName(p string) bool { return strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml") }

// FindLefthookConfig finds lefthook's config in the worktree at root as
// lefthook 2 does; nil when there is none (lefthook is not used).
func FindLefthookConfig(root string) *LefthookConfig {
	main, local := firstExisting(root, lefthookMain), firstExisting(root, lefthookLocal)
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil {
			return r
		}
		return p
	}
	switch {
	case main == "" && local == "":
		return nil
	case main != "" && isYAMLName(main):
		return &LefthookConfig{Path: main}
	case main == "" && isYAMLName(local):
		return &LefthookConfig{Path: local}
	case main == "":
		return &LefthookConfig{Path: local, Refusal: fmt.Sprintf("%s is lefthook's only config and swarm-guard edits YAML configs only: rename it to %s (lefthook reads it the same way), then run swarm-guard install again: swarm-guard's commands then go into a new lefthook-local.yml", rel(local), "lefthook"+filepath.Ext(local))}
	case local == "":
		// A TOML or JSON main config: swarm-guard goes into a new
		// lefthook-local.yml, which lefthook merges into any main config.
		return &LefthookConfig{Path: filepath.Join(root, "lefthook-local.yml"), Main: main}
	case isYAMLName(local):
		return &LefthookConfig{Path: local, Main: main}
	default:
		return &LefthookConfig{Path: local, Main: main, Refusal: fmt.Sprintf("lefthook's configs %s and %s are not YAML, and swarm-guard adds its commands to a YAML lefthook-local.yml only: move what %s holds into %s, delete %s, then run swarm-guard install again", rel(main), rel(local), rel(local), rel(main), rel(local))}
	}
}

// lefthookArgs is how many arguments git passes each hook.
var lefthookArgs = map[string]int{"pre-commit": 0, "prepare-commit-msg": 3, "commit-msg": 1, "pre-push": 2}

// lefthookRun is the shell a swarm-guard command runs for hook. lefthook
// pastes git's arguments into the command text unquoted ({1}, {2}, ...), so
// a quote or a semicolon in a push URL would change the command: they come
// in on a quoted here-document, one a line, and become "$@" again; an
// argument git did not pass stays "{N}" and is dropped.
func lefthookRun(hook string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s (runs swarm-guard, found by its lookup rule)\n", hookFingerprint, hook)
	fmt.Fprintf(&b, "%s; [ -x \"$sg\" ] || { echo %s >&2; exit 1; }\n", clientconfig.LookupScript("."), shellQuote(clientconfig.InstallHint))
	n := lefthookArgs[hook]
	if n > 0 {
		b.WriteString("set --\n")
		b.WriteString("while IFS= read -r a <&3; do case $a in \"{\"[1-9]\"}\") ;; *) set -- \"$@\" \"$a\" ;; esac; done 3<<'SWARM_GUARD_ARGS'\n")
		for i := 1; i <= n; i++ {
			fmt.Fprintf(&b, "{%d}\n", i)
		}
		b.WriteString("SWARM_GUARD_ARGS\n")
	}
	fmt.Fprintf(&b, "exec \"$sg\" git-hook %s \"$@\"\n", hook)
	return b.String()
}

// lefthookEntry is swarm-guard's command for hook as YAML lines, indented
// by indent; asJob writes it as an item of a jobs list.
func lefthookEntry(hook, indent string, asJob bool) []string {
	var lines []string
	inner := indent + "  "
	if asJob {
		lines = append(lines, indent+"- name: "+lefthookCommand)
	} else {
		lines = append(lines, indent+lefthookCommand+":")
	}
	if hook == "pre-push" {
		lines = append(lines, inner+"use_stdin: true")
	}
	lines = append(lines, inner+"run: |")
	for _, l := range strings.Split(strings.TrimSuffix(lefthookRun(hook), "\n"), "\n") {
		lines = append(lines, inner+"  "+l)
	}
	return lines
}

func markedBlock(indent string, body []string) []string {
	out := []string{indent + lefthookBegin}
	out = append(out, body...)
	return append(out, indent+lefthookEnd)
}

// withoutLefthookBlocks removes every marked block: the lines from a begin
// marker to its end marker. A block at the very end with no newline after
// it was appended to a file that had no final newline: the newline before
// it goes too. ok is false when a begin marker has no end.
func withoutLefthookBlocks(s string) (out string, found, ok bool) {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != lefthookBegin {
			b.WriteString(lines[i])
			continue
		}
		j := i
		for j < len(lines) && strings.TrimSpace(lines[j]) != lefthookEnd {
			j++
		}
		if j == len(lines) {
			return s, found, false
		}
		found = true
		if j == len(lines)-1 && !strings.HasSuffix(lines[j], "\n") {
			cur := strings.TrimSuffix(b.String(), "\n")
			b.Reset()
			b.WriteString(cur)
		}
		i = j
	}
	return b.String(), found, true
}

// insertion is lines to insert before 0-based line at.
type insertion struct {
	at    int
	lines []string
}

func mapValue(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func isEmptyValue(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null" && n.Value == ""
}

// withLefthookBlocks returns the config text with swarm-guard's command in
// every hook of HookNames (after removing earlier blocks): inside a hook
// the config already has, else appended at the end.
func withLefthookBlocks(path, text string) (string, error) {
	base, _, ok := withoutLefthookBlocks(text)
	if !ok {
		return "", fmt.Errorf("%s has a %q line without its %q line; remove what is left of swarm-guard's block, then run swarm-guard install again", path, lefthookBegin, lefthookEnd)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(base), &doc); err != nil {
		return "", fmt.Errorf("%s is not valid YAML (%v); lefthook cannot read it either: fix it, then run swarm-guard install again", path, err)
	}
	var top *yaml.Node
	if len(doc.Content) > 0 {
		top = doc.Content[0]
		if top.Kind != yaml.MappingNode || top.Style&yaml.FlowStyle != 0 {
			if !isEmptyValue(top) {
				return "", fmt.Errorf("%s is not a block YAML mapping of hooks; add a command running `swarm-guard git-hook <hook>` to its hooks yourself", path)
			}
			top = nil
		}
	}
	lines := strings.SplitAfter(base, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	// refuse says why install cannot add its command to hook, and fix.
	refuse := func(hook, why, fix string) error {
		return fmt.Errorf("%s: swarm-guard cannot add its command to %s (%s); %s, then run swarm-guard install again", path, hook, why, fix)
	}
	// handEdit refuses a hook whose YAML install cannot edit line by
	// line: writing it in block style fixes it.
	handEdit := func(hook, why string) error {
		return refuse(hook, why, "write that hook in block style (key: value lines)")
	}
	// taken is the refusal of a hook that already has a command or job
	// (what) of install's name that install did not write.
	taken := func(hook, what string) error {
		return refuse(hook, "it already has a "+what+" named "+lefthookCommand+", not written by install", "remove it: install writes its own")
	}
	indentOf := func(line int) string { // 1-based
		l := lines[line-1]
		return l[:len(l)-len(strings.TrimLeft(l, " "))]
	}
	var ins []insertion
	var tail []string
	for _, hook := range HookNames {
		k, v := mapValue(top, hook)
		if k == nil {
			if len(tail) > 0 {
				tail = append(tail, "")
			}
			tail = append(tail, hook+":", "  commands:")
			tail = append(tail, lefthookEntry(hook, "    ", false)...)
			continue
		}
		keyIndent := strings.Repeat(" ", k.Column-1)
		switch {
		case isEmptyValue(v):
			ins = append(ins, insertion{k.Line, markedBlock(keyIndent+"  ", append([]string{keyIndent + "  commands:"}, lefthookEntry(hook, keyIndent+"    ", false)...))})
			continue
		case v.Kind != yaml.MappingNode || v.Style&yaml.FlowStyle != 0 || len(v.Content) == 0:
			return "", handEdit(hook, "its value is not a block mapping")
		}
		childIndent := strings.Repeat(" ", v.Content[0].Column-1)
		ck, cv := mapValue(v, "commands")
		jk, jv := mapValue(v, "jobs")
		switch {
		case ck != nil && isEmptyValue(cv):
			ins = append(ins, insertion{ck.Line, markedBlock(childIndent+"  ", lefthookEntry(hook, childIndent+"  ", false))})
		case ck != nil && cv.Kind == yaml.MappingNode && cv.Style&yaml.FlowStyle == 0 && len(cv.Content) > 0:
			if n, _ := mapValue(cv, lefthookCommand); n != nil {
				return "", taken(hook, "command")
			}
			ind := strings.Repeat(" ", cv.Content[0].Column-1)
			ins = append(ins, insertion{ck.Line, markedBlock(ind, lefthookEntry(hook, ind, false))})
		case ck != nil:
			return "", handEdit(hook, "its commands are not a block mapping")
		case jk != nil && isEmptyValue(jv):
			ins = append(ins, insertion{jk.Line, markedBlock(childIndent+"  ", lefthookEntry(hook, childIndent+"  ", true))})
		case jk != nil && jv.Kind == yaml.SequenceNode && jv.Style&yaml.FlowStyle == 0 && len(jv.Content) > 0:
			for _, job := range jv.Content {
				if _, n := mapValue(job, "name"); n != nil && n.Value == lefthookCommand {
					return "", taken(hook, "job")
				}
			}
			first := jv.Content[0].Line
			if !strings.HasPrefix(strings.TrimLeft(lines[first-1], " "), "-") {
				return "", handEdit(hook, "its jobs are not a block list")
			}
			ind := indentOf(first)
			ins = append(ins, insertion{jk.Line, markedBlock(ind, lefthookEntry(hook, ind, true))})
		case jk != nil:
			return "", handEdit(hook, "its jobs are not a block list")
		default:
			ins = append(ins, insertion{k.Line, markedBlock(childIndent, append([]string{childIndent + "commands:"}, lefthookEntry(hook, childIndent+"  ", false)...))})
		}
		if k.Line == v.Line || (ck != nil && ck.Line == cv.Line && !isEmptyValue(cv)) || (jk != nil && jk.Line == jv.Line && !isEmptyValue(jv)) {
			return "", handEdit(hook, "a value starts on its key's line")
		}
	}
	sort.SliceStable(ins, func(i, j int) bool { return ins[i].at < ins[j].at })
	var b strings.Builder
	next := 0
	for i, l := range lines {
		for next < len(ins) && ins[next].at == i {
			for _, il := range ins[next].lines {
				b.WriteString(il + "\n")
			}
			next++
		}
		b.WriteString(l)
	}
	if len(tail) > 0 {
		out := b.String()
		b.Reset()
		b.WriteString(out)
		if out != "" && !strings.HasSuffix(out, "\n") {
			// No final newline: the block ends without one too, so
			// uninstall knows to take this newline away again.
			b.WriteString("\n")
			block := markedBlock("", tail)
			b.WriteString(strings.Join(block, "\n"))
		} else {
			for _, l := range markedBlock("", tail) {
				b.WriteString(l + "\n")
			}
		}
	}
	return b.String(), nil
}

// LefthookHook is what lefthook's config holds for one hook.
type LefthookHook struct {
	Ours    bool // swarm-guard's command is there, as install writes it
	Present bool // a swarm-guard command is there (maybe stale)
}

// InspectLefthook reads swarm-guard's commands from lefthook's config.
func InspectLefthook(path string) (map[string]LefthookHook, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s is not valid YAML: %v", path, err)
	}
	out := map[string]LefthookHook{}
	if len(doc.Content) == 0 {
		return out, nil
	}
	for _, hook := range HookNames {
		_, v := mapValue(doc.Content[0], hook)
		var run string
		_, cmds := mapValue(v, "commands")
		if _, c := mapValue(cmds, lefthookCommand); c != nil {
			_, r := mapValue(c, "run")
			if r != nil {
				run = r.Value
			}
		}
		if _, jobs := mapValue(v, "jobs"); jobs != nil && jobs.Kind == yaml.SequenceNode {
			for _, j := range jobs.Content {
				if _, n := mapValue(j, "name"); n != nil && n.Value == lefthookCommand {
					if _, r := mapValue(j, "run"); r != nil {
						run = r.Value
					}
				}
			}
		}
		if run != "" {
			out[hook] = LefthookHook{Present: true, Ours: run == lefthookRun(hook)}
		}
	}
	return out, nil
}

// findLefthook finds the lefthook executable the way a teammate runs it:
// on PATH, else the repository's npm devDependency.
func findLefthook(root string) string {
	if p, err := exec.LookPath("lefthook"); err == nil {
		return p
	}
	if p := filepath.Join(root, "node_modules", ".bin", "lefthook"); isExecutable(p) {
		return p
	}
	return ""
}

// LefthookExecutable is the lefthook that lefthook's hook at runner will
// run in the worktree at root, as far as can be told without running it:
// $LEFTHOOK_BIN, lefthook on PATH, the path lefthook wrote into its hook,
// the npm package in node_modules. "" when none: lefthook's hook then
// prints "Can't find lefthook in PATH" and exits 0, so the commit goes
// through unchecked (unless a runner it also tries, such as bundle exec,
// go tool or mise, provides lefthook).
func LefthookExecutable(root, runner string, getenv func(string) string) string {
	if b := getenv("LEFTHOOK_BIN"); b != "" && isExecutable(b) {
		return b
	}
	if p := findLefthook(root); p != "" {
		return p
	}
	if data, err := os.ReadFile(runner); err == nil {
		for _, m := range lefthookBaked().FindAllStringSubmatch(string(data), -1) {
			if isExecutable(m[1]) {
				return m[1]
			}
		}
	}
	cpu := map[string]string{"amd64": "x64", "arm64": "arm64"}[runtime.GOARCH]
	for _, p := range []string{
		filepath.Join(root, "node_modules", "lefthook-"+runtime.GOOS+"-"+cpu, "bin", "lefthook"),
		filepath.Join(root, "node_modules", "lefthook", "bin", "index.js"),
	} {
		if isExecutable(p) {
			return p
		}
	}
	return ""
}

// lefthookBaked finds the absolute path lefthook install writes into its
// hook: `elif /path/to/lefthook -h >/dev/null 2>&1`.
var lefthookBaked = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*elif (/\S+) -h >/dev/null 2>&1$`) })
