package secretscan

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/redact"
	"github.com/swarm-guard/swarm-guard/hooks/audit"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/internal/gitchanges"
	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
	"github.com/swarm-guard/swarm-guard/hooks/internal/toolcontent"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/client"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/envcreds"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/internal/files"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/watch"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Bounds of the after-the-fact scan: it runs after every Bash call, so it
// must stay cheap whatever the command did.
const (
	maxPostFiles = 200              // files scanned after one command
	postTimeout  = 10 * time.Second // the whole scan; the hook timeout is 60 s
	bashWindow   = 2 * time.Minute  // Bash's default timeout: how far back "written by this command" reaches without duration_ms
	clockSlack   = 2 * time.Second  // mtime granularity and clock skew
	gitTimeout   = 500 * time.Millisecond
	watchTimeout = 500 * time.Millisecond
)

// PostRequest is one PostToolUse event.
type PostRequest struct {
	In     *event.Event
	Ctx    *hookenv.Context
	Policy *policy.Policy
	Runner Runner
	Now    time.Time
	Getenv func(string) string
	// Environ lists the environment (os.Environ when nil): the values of
	// its credential variables are withheld from output (package envcreds).
	Environ func() []string
	// Duration is how long the tool ran (the event's duration_ms, Claude
	// Code 2.1.119 and later); 0 when unknown, and then the Bash call's
	// timeout, or two minutes, bounds "written during the call".
	Duration time.Duration
	// StartWatcher, when set, starts the worktree's file watcher (package
	// watch) in the background. After an opaque command PostToolUse asks
	// the watcher which files changed during the call; when none answers
	// for the whole call it looks at the whole worktree, and starts one
	// for the next calls. Nil leaves the watcher out.
	StartWatcher func(watch.Paths) error
	// Record writes a block to the audit log (the hook's; not when the
	// event is only being explained or replayed).
	Record bool
}

// PostAnswer is PostToolUse's answer: nothing, a note for the operator, or
// a block, the agent's cue to repair what the call did (the tool already
// ran), possibly with the tool's output as the model must read it instead.
type PostAnswer struct {
	Block  bool
	Rule   string // the rule of a block
	Reason string // what the agent reads, redacted
	// Updated is the tool's result with the lines holding a secret
	// withheld; nil leaves the result alone.
	Updated json.RawMessage
	// Note is a line for the operator (the client's debug log), not the
	// agent.
	Note string
}

// target is one thing to scan after the call.
type target struct {
	path string // absolute
	rel  string
	// text, when set, is scanned instead of the file (NotebookEdit's cell).
	text *string
	// newLines, when set, limits findings to these line numbers: the lines
	// a Write or Edit added according to Claude Code's patch, or the lines
	// a tracked file adds over the index.
	newLines map[int]bool
}

// PostToolUse scans what a tool call just wrote and, when it holds a
// secret, answers {"decision":"block","reason":...}: the tool already ran,
// so this is the agent's cue to remove the secret at once.
func PostToolUse(r PostRequest) PostAnswer {
	pol := r.Policy
	if !pol.Secrets.PostToolUse || pol.RuleAction(policy.RuleSecretContent) == policy.Off {
		return PostAnswer{}
	}
	if r.Now.IsZero() {
		r.Now = time.Now()
	}
	if r.Getenv == nil {
		r.Getenv = os.Getenv
	}
	if r.Environ == nil {
		r.Environ = os.Environ
	}
	root := r.Ctx.Env.Root
	var targets, outputs []target
	var printedCreds []wire.Finding // credential values of the environment in the output
	command := ""
	switch r.In.ToolName {
	case guard.ToolBash:
		ti, err := event.DecodeToolInput(r.In.ToolInput)
		if err != nil || ti.Command == nil {
			return PostAnswer{}
		}
		command = *ti.Command
		targets = bashTargets(r, command)
		outputs, printedCreds = bashOutputs(r)
	case guard.ToolWrite, guard.ToolEdit, guard.ToolMultiEdit:
		var ti struct {
			FilePath string `json:"file_path"`
		}
		if json.Unmarshal(r.In.ToolInput, &ti) != nil || ti.FilePath == "" {
			return PostAnswer{}
		}
		targets = []target{{path: ti.FilePath, rel: nameIn(root, ti.FilePath, r.Ctx.Env.Resolve), newLines: patchedLines(r.In.ToolResponse)}}
	case guard.ToolRead:
		return readResult(r)
	case guard.ToolNotebookEdit:
		c, err := toolcontent.Compute(r.In.ToolName, r.In.ToolInput, os.ReadFile)
		if err != nil {
			return PostAnswer{}
		}
		targets = []target{{path: c.Path, rel: nameIn(root, c.Path, r.Ctx.Env.Resolve), text: &c.Text}}
	default:
		if !guard.IsMCPTool(r.In.ToolName) || !pol.MCP.ScanResults {
			return PostAnswer{}
		}
		// An MCP tool's result reaches the agent's context: a secret in it
		// is scanned like Bash output.
		text := resultText(r.In.ToolResponse)
		if text == "" {
			return PostAnswer{}
		}
		targets = []target{{rel: "the result of " + r.In.ToolName, text: &text}}
		printedCreds = credentialFindings("the result of "+r.In.ToolName, text, envcreds.From(r.Environ()))
	}
	kept := targets[:0]
	for _, t := range targets {
		if !allowed(pol, t.rel) {
			kept = append(kept, t)
		}
	}
	kept = append(kept, outputs...) // not paths: no path rule applies
	if len(kept) == 0 && len(printedCreds) == 0 {
		return PostAnswer{}
	}
	var findings []wire.Finding
	var tooLarge []string
	var err error
	if len(kept) > 0 {
		findings, tooLarge, err = scanTargets(r, kept)
	}
	findings = append(findings, printedCreds...)
	if err != nil {
		// Not "for secrets: <cause>": the audit redactor would take the
		// cause, which names the scanner to install, for a secret value.
		msg := "swarm-guard could not scan what this " + r.In.ToolName + " call wrote. Cause: " + oneLine(err.Error())
		if pol.FailMode == policy.FailOpen {
			return PostAnswer{Note: msg + " (fail_mode is open: not blocking)"}
		}
		return block(r, command, policy.RuleInternalError, msg+". Check the files you wrote for credentials yourself before you go on.")
	}
	if len(findings) == 0 {
		if len(tooLarge) > 0 {
			return PostAnswer{Note: "swarm-guard: not scanned for secrets (over 10 MB): " + strings.Join(tooLarge, ", ")}
		}
		return PostAnswer{}
	}
	written, printed := splitOutputFindings(findings)
	var reasons []string
	var updated json.RawMessage
	if len(printed) > 0 {
		var n int
		updated, n = withheldOutput(r.In.ToolResponse, printed)
		reasons = append(reasons, fmt.Sprintf("swarm-guard withheld %s of this Bash call's output: %s held %s (%s). Do not print credentials: read them into a variable or a file the command uses, without echoing them; if one is real, tell a human, who rotates it.",
			plural(n, "line"), them2(n), plural(len(printed), "secret"), locations(printed, 5)))
		if updated == nil {
			reasons[0] = fmt.Sprintf("swarm-guard found %s in this Bash call's output: %s. Do not repeat, write or send %s anywhere; if one is real, tell a human, who rotates it.",
				plural(len(printed), "secret"), locations(printed, 5), them(len(printed)))
		}
	}
	if len(written) > 0 {
		reasons = append([]string{fmt.Sprintf("swarm-guard found %s in what this %s call wrote: %s. Remove %s now: %s.",
			plural(len(written), "secret"), r.In.ToolName, locations(written, 5), them(len(written)), fixAdvice(pol))}, reasons...)
	}
	reason := strings.Join(reasons, " ")
	if guard.IsMCPTool(r.In.ToolName) {
		reason = fmt.Sprintf("swarm-guard found %s in the result of %s: %s. Do not repeat, write or send %s anywhere; tell a human, who rotates %s.",
			plural(len(findings), "secret"), r.In.ToolName, locations(findings, 5), them(len(findings)), them(len(findings)))
	}
	return blockWith(r, command, policy.RuleSecretContent, reason, updated)
}

func them2(n int) string {
	if n == 1 {
		return "it"
	}
	return "they"
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// block answers PostToolUse with a block decision and records it in the
// audit log, redacted like every record.
func block(r PostRequest, command, rule, reason string) PostAnswer {
	return blockWith(r, command, rule, reason, nil)
}

// blockWith is block that also replaces the tool's output the model reads
// when updated is set.
func blockWith(r PostRequest, command, rule, reason string, updated json.RawMessage) PostAnswer {
	resp := PostAnswer{Block: true, Rule: rule, Reason: redact.String(reason), Updated: updated}
	if !r.Record {
		return resp
	}
	agent := r.Getenv("SWARM_GUARD_AGENT_ID")
	if agent == "" {
		agent = r.Getenv("AGENT_ID")
	}
	if agent == "" {
		agent = r.In.AgentID
	}
	if len(command) > 4096 {
		command = command[:4096] + "…"
	}
	rec := audit.Record{
		Time: r.Now.UTC().Format(time.RFC3339Nano), Event: r.In.HookEventName, SessionID: r.In.SessionID, AgentID: agent, Client: r.In.Client,
		Tool: r.In.ToolName, Cwd: r.In.Cwd, Command: redact.String(command), Action: "block", Rule: rule,
		Reason: redact.String(reason), Policy: r.Policy.Source, Micros: time.Since(r.Now).Microseconds(),
	}
	if err := audit.Append(filepath.Join(r.Ctx.StateDir, audit.FileName), rec); err != nil {
		resp.Note = "swarm-guard: the decision was not written to the audit log (" + oneLine(err.Error()) + ")"
	}
	return resp
}

// bashTargets lists the files a Bash command wrote inside the worktree:
// what the shell analysis says it writes (a directory stands for the files
// in it modified during the call), plus files git sees changed or created
// during the call, which catches programs that write files the command
// line does not name.
//
// In a tracked file only the lines the worktree adds over the index count:
// a secret in an unchanged line of a file the command merely appended to
// was not written by it (the pre-commit hook and CI report it where it was
// added). Untracked and ignored files count whole.
func bashTargets(r PostRequest, command string) []target {
	env := r.Ctx.Env
	root := env.Root
	window := r.Duration
	if window <= 0 {
		window = bashWindow
		var ti struct {
			Timeout int64 `json:"timeout"` // ms
		}
		if json.Unmarshal(r.In.ToolInput, &ti) == nil && ti.Timeout > 0 {
			window = time.Duration(ti.Timeout) * time.Millisecond
		}
	}
	since := r.Now.Add(-window - clockSlack)
	seen := map[string]bool{}
	var out []target
	add := func(p string) {
		p = filepath.Clean(p)
		if seen[p] || len(out) >= maxPostFiles || !inside(root, p) || inside(filepath.Join(root, ".git"), p) {
			return
		}
		seen[p] = true
		out = append(out, target{path: p, rel: RelPath(root, p)})
	}
	written, opaque := guard.New(r.Policy).Writes(command, env)
	for _, p := range written {
		fi, err := os.Stat(p)
		switch {
		case err != nil:
		case fi.IsDir():
			if inside(root, p) || inside(p, root) {
				dir := p
				if inside(p, root) {
					dir = root // "cp x /" still only concerns the worktree
				}
				modified, _ := files.ModifiedSince(dir, since, maxPostFiles)
				for _, m := range modified {
					add(m)
				}
			}
		case fi.Mode().IsRegular():
			add(p)
		}
	}
	if r.Ctx.Repo == nil {
		return out
	}
	if !opaque && len(out) == 0 {
		// The command provably wrote nothing (ls, git status, go test):
		// no child process at all.
		return out
	}
	if !opaque && !customRules(root) {
		// Every file the command writes is known, and one the default
		// rules provably find nothing in needs neither git (which lines
		// are new) nor the scanner: echo note >> notes.txt starts no
		// child process.
		if out = withoutClean(out); len(out) == 0 {
			return out
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	var status map[string]statusKind
	if !opaque {
		// Every file the command writes is known (echo x > f, tee, cp):
		// ask git about exactly those, not the whole worktree.
		known := make([]string, len(out))
		for i, t := range out {
			known[i] = t.rel
		}
		status = gitStatus(ctx, root, known...)
	} else {
		status = opaqueStatus(ctx, r, since)
		rels := make([]string, 0, len(status))
		for rel := range status {
			rels = append(rels, rel)
		}
		sort.Strings(rels)
		for _, rel := range rels {
			p := filepath.Join(root, filepath.FromSlash(rel))
			if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() && !fi.ModTime().Before(since) {
				add(p)
			}
		}
	}
	var tracked []string
	for _, t := range out {
		if status[t.rel] == statusModified {
			tracked = append(tracked, t.rel)
		}
	}
	if len(tracked) > 0 {
		added := map[string]map[int]bool{}
		for _, rel := range tracked {
			added[rel] = map[int]bool{}
		}
		err := gitchanges.Unstaged(ctx, root, tracked, func(h gitchanges.Hunk) error {
			if lines, ok := added[h.File]; ok {
				for i := range h.Lines() {
					lines[h.Line+i] = true
				}
			}
			return nil
		})
		if err == nil {
			for i := range out {
				if lines, ok := added[out[i].rel]; ok {
					out[i].newLines = lines
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].rel < out[j].rel })
	return out
}

// opaqueStatus is git's view of the files an opaque command may have
// written: of the files the worktree's watcher heard written since the
// call began when it can vouch for the whole call (a cost that does not
// grow with the worktree; no child process at all when nothing was
// written), else of the whole worktree.
func opaqueStatus(ctx context.Context, r PostRequest, since time.Time) map[string]statusKind {
	root := r.Ctx.Env.Root
	if r.StartWatcher == nil || r.Ctx.StateDir == "" {
		return gitStatus(ctx, root)
	}
	wp := watch.For(root, r.Ctx.StateDir)
	changed, ok := watch.Changed(wp, since, watchTimeout)
	if !ok {
		status := gitStatus(ctx, root)
		if wp.ShouldStart(r.Now) {
			_ = r.StartWatcher(wp) // for the next calls; this one is covered
		}
		return status
	}
	var rels []string
	for _, p := range changed {
		if inside(root, p) && !inside(filepath.Join(root, ".git"), p) {
			rels = append(rels, RelPath(root, p))
		}
	}
	if len(rels) == 0 {
		return nil
	}
	sort.Strings(rels)
	return gitStatus(ctx, root, rels...)
}

// Bash's output streams as scan targets are named so in findings.
const (
	outStdout = "(stdout)"
	outStderr = "(stderr)"
)

// maxOutputScan bounds the output scanned after one Bash call (Claude Code
// cuts Bash output at 30,000 characters by default).
const maxOutputScan = 1 << 20

// bashOutputs reads the stdout and stderr of a Bash call (PostToolUse's
// tool_response), which the model reads next: a secret printed there
// lands in its context. targets are the streams the scanner must read: a
// stream that holds none of the default rules' keywords and nothing
// gitleaks would decode cannot hold a finding of theirs (with a
// .gitleaks.toml every stream is read). creds are the lines that hold the
// value of a credential variable of the environment (package envcreds),
// as findings of the streams.
func bashOutputs(r PostRequest) (targets []target, creds []wire.Finding) {
	resp, ok := decodeBashResponse(r.In.ToolResponse)
	if !ok {
		return nil, nil
	}
	custom := false
	if root := r.Ctx.Env.Root; root != "" {
		_, err := os.Stat(filepath.Join(root, ".gitleaks.toml"))
		custom = err == nil
	}
	var env []envcreds.Credential
	for _, s := range []struct {
		name string
		text *string
	}{{outStdout, resp.Stdout}, {outStderr, resp.Stderr}} {
		if s.text == nil || *s.text == "" || len(*s.text) > maxOutputScan {
			continue
		}
		if custom || keywords.MayHoldSecret(*s.text) && !keywords.Clean(s.name, *s.text) {
			targets = append(targets, target{rel: s.name, text: s.text})
		}
		if env == nil {
			env = envcreds.From(r.Environ())
		}
		creds = append(creds, credentialFindings(s.name, *s.text, env)...)
	}
	return targets, creds
}

// readResult withholds the lines of a Read call's text result that hold
// the value of a credential variable of the environment (package
// envcreds), as Bash output's are: a file where a script logged a token
// puts it in the agent's context as surely as printenv does. The file
// itself is the secret-content and pre-commit doors' concern; gitleaks'
// rules are not run here (every Read would pay for the scanner).
func readResult(r PostRequest) PostAnswer {
	var resp map[string]json.RawMessage
	if json.Unmarshal(r.In.ToolResponse, &resp) != nil || string(resp["type"]) != `"text"` {
		return PostAnswer{} // an image, a PDF, a notebook: another shape
	}
	var file map[string]json.RawMessage
	var content string
	if json.Unmarshal(resp["file"], &file) != nil || json.Unmarshal(file["content"], &content) != nil || content == "" {
		return PostAnswer{}
	}
	found := credentialFindings("", content, envcreds.From(r.Environ()))
	if len(found) == 0 {
		return PostAnswer{}
	}
	var names []string
	for _, f := range found {
		if !slices.Contains(names, f.Rule) {
			names = append(names, f.Rule)
		}
	}
	content, n := withholdLines(content, found)
	file["content"], _ = json.Marshal(content)
	resp["file"], _ = json.Marshal(file)
	updated, err := json.Marshal(resp)
	if err != nil {
		return PostAnswer{}
	}
	path := ""
	var ti struct {
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(r.In.ToolInput, &ti) == nil {
		path = nameIn(r.Ctx.Env.Root, ti.FilePath, r.Ctx.Env.Resolve)
	}
	reason := fmt.Sprintf("swarm-guard withheld %s of what this Read returned from %s: %s held the value of %s. Do not copy credentials into files; read them from the environment at run time. If the file is in the repository, remove the value from it; if one is real, tell a human, who rotates it.",
		plural(n, "line"), path, them2(n), strings.Join(names, ", "))
	return blockWith(r, "", policy.RuleSecretContent, reason, updated)
}

// credentialFindings are the lines of text (named file) that hold one of
// creds, as findings: the rule is the variable, so the withheld line says
// "it held a secret ($GITHUB_TOKEN)", and nothing of the value is shown.
func credentialFindings(file, text string, creds []envcreds.Credential) []wire.Finding {
	var out []wire.Finding
	for _, h := range envcreds.Find(text, creds) {
		out = append(out, wire.Finding{File: file, Line: h.Line, EndLine: h.Line, Rule: "$" + h.Name,
			Description: "the value of the environment variable " + h.Name, Preview: "the value of $" + h.Name})
	}
	return out
}

// bashResponse is what the output scan reads of a Bash call's
// tool_response.
type bashResponse struct {
	Stdout *string `json:"stdout"`
	Stderr *string `json:"stderr"`
}

// decodeBashResponse decodes a Bash call's tool_response as json.Unmarshal
// would into a bashResponse (ok: no error), reading the usual shape
// without reflection (package jsonobj).
func decodeBashResponse(raw []byte) (resp bashResponse, ok bool) {
	if len(raw) == 0 {
		return resp, false
	}
	if jsonobj.Members(raw, func(key string, v []byte) bool {
		switch {
		case jsonobj.Is(key, "stdout"):
			return jsonobj.SetStringPtr(v, &resp.Stdout)
		case jsonobj.Is(key, "stderr"):
			return jsonobj.SetStringPtr(v, &resp.Stderr)
		}
		return true
	}) {
		return resp, true
	}
	resp = bashResponse{}
	return resp, json.Unmarshal(raw, &resp) == nil
}

// splitOutputFindings separates findings in files from findings in the
// output streams.
func splitOutputFindings(fs []wire.Finding) (written, printed []wire.Finding) {
	for _, f := range fs {
		if f.File == outStdout || f.File == outStderr {
			printed = append(printed, f)
		} else {
			written = append(written, f)
		}
	}
	return written, printed
}

// withheldOutput is the Bash tool_response with every line that holds a
// finding replaced by a notice, and how many lines that is; nil when the
// response cannot be rewritten.
func withheldOutput(resp json.RawMessage, printed []wire.Finding) (json.RawMessage, int) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(resp, &obj) != nil {
		return nil, 0
	}
	total := 0
	for key, name := range map[string]string{"stdout": outStdout, "stderr": outStderr} {
		var text string
		if raw, ok := obj[key]; !ok || json.Unmarshal(raw, &text) != nil {
			continue
		}
		var mine []wire.Finding
		for _, f := range printed {
			if f.File == name {
				mine = append(mine, f)
			}
		}
		if text, n := withholdLines(text, mine); n > 0 {
			obj[key], _ = json.Marshal(text)
			total += n
		}
	}
	if total == 0 {
		return nil, 0
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, 0
	}
	return out, total
}

// withholdLines replaces every line of text that a finding covers with a
// notice naming its rule, and says how many lines it replaced (a line two
// findings share counts once).
func withholdLines(text string, fs []wire.Finding) (string, int) {
	lines := strings.Split(text, "\n")
	withheld := map[int]bool{}
	n := 0
	for _, f := range fs {
		for l := f.Line; l <= max(f.Line, f.EndLine) && l >= 1 && l <= len(lines); l++ {
			notice := "[swarm-guard: line withheld, it held a secret (" + f.Rule + ")]"
			if !withheld[l] && lines[l-1] != notice {
				lines[l-1] = notice
				withheld[l] = true
				n++
			}
		}
	}
	if n == 0 {
		return text, 0
	}
	return strings.Join(lines, "\n"), n
}

// inside reports whether p is dir or below it.
func inside(dir, p string) bool {
	if dir == "" {
		return false
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// patchedLines reads the new-side numbers of the lines a Write or Edit
// added from Claude Code's tool_response.structuredPatch. nil means
// unknown: every line counts.
func patchedLines(resp json.RawMessage) map[int]bool {
	var tr struct {
		Type            string `json:"type"`
		StructuredPatch []struct {
			NewStart int      `json:"newStart"`
			Lines    []string `json:"lines"`
		} `json:"structuredPatch"`
	}
	if len(resp) == 0 || json.Unmarshal(resp, &tr) != nil || tr.Type == "create" || tr.StructuredPatch == nil {
		return nil
	}
	out := map[int]bool{}
	for _, h := range tr.StructuredPatch {
		n := h.NewStart
		for _, l := range h.Lines {
			switch {
			case strings.HasPrefix(l, "+"):
				out[n] = true
				n++
			case strings.HasPrefix(l, "-"):
			default:
				n++
			}
		}
	}
	return out
}

// scanTargets scans the targets and keeps the findings on their new lines.
func scanTargets(r PostRequest, targets []target) (findings []wire.Finding, tooLarge []string, err error) {
	if !customRules(r.Ctx.Env.Root) {
		if targets = withoutClean(targets); len(targets) == 0 {
			return nil, nil, nil // no scanner round trip
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), postTimeout)
	defer cancel()
	byRel := map[string]target{}
	all, err := r.Runner.run(ctx, r.Ctx.Env.Root, r.Policy, func(emit client.Emit) error {
		for _, t := range targets {
			byRel[t.rel] = t
			if t.text != nil {
				if err := emit(wire.NewBlock(t.rel, "", 1, []byte(*t.text))); err != nil {
					return err
				}
				continue
			}
			skip, err := files.Read(t.path, toolcontent.MaxBytes, func(p files.Piece) error {
				return emit(wire.NewBlock(t.rel, "", p.Line, p.Data))
			})
			if err != nil {
				return err
			}
			if skip != nil && skip.Reason == files.ReasonTooLarge {
				tooLarge = append(tooLarge, t.rel)
			}
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, f := range all {
		t := byRel[f.File]
		if t.newLines != nil && !anyLine(t.newLines, f.Line, f.EndLine) {
			continue
		}
		findings = append(findings, f)
	}
	return findings, tooLarge, nil
}

// cleanReadMax bounds the files withoutClean reads to prove clean; bigger
// ones go to the scanner as they are.
const cleanReadMax = 1 << 20

// withoutClean drops the targets whose text the default rules provably
// find nothing in (keywords.Clean): a file written by "echo note >>
// notes.txt" needs no scanner.
func withoutClean(targets []target) []target {
	var out []target
	for _, t := range targets {
		text := t.text
		if text == nil {
			if fi, err := os.Stat(t.path); err == nil && fi.Mode().IsRegular() && fi.Size() <= cleanReadMax {
				if data, err := os.ReadFile(t.path); err == nil {
					s := string(data)
					text = &s
				}
			}
		}
		if text != nil && keywords.Clean(t.rel, *text) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func anyLine(lines map[int]bool, first, last int) bool {
	for l := first; l <= max(first, last); l++ {
		if lines[l] {
			return true
		}
	}
	return false
}

// locations renders up to n findings as "path:line [rule] `preview`" (see list).
func locations(fs []wire.Finding, n int) string {
	var parts []string
	for i, f := range fs {
		if i == n {
			parts = append(parts, fmt.Sprintf("and %d more", len(fs)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s:%d [%s] `%s`", f.File, f.Line, f.Rule, f.Preview))
	}
	return strings.Join(parts, "; ")
}

// resultText is the text of an MCP tool's result: every string in the
// tool_response JSON (MCP results are lists of {"type":"text","text":...}
// blocks, or plain strings), one per line, at most 2 MB.
func resultText(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	eachString(v, func(_, s string) bool {
		b.WriteString(s)
		b.WriteByte('\n')
		return b.Len() <= 2<<20
	})
	return b.String()
}
