package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/decide"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Protocol exit codes.
const (
	ExitNoDecision = 0 // the call goes through Claude Code's normal permission flow
	ExitDeny       = 2 // the call is blocked; stderr is the reason the agent reads
)

// MaxInputBytes bounds what is read from stdin. A Write of a large file is
// the biggest legitimate payload.
const MaxInputBytes = 32 << 20

// Runtime is what a hook invocation gets from its process.
type Runtime struct {
	Stdin       io.Reader
	Getenv      func(string) string
	Now         func() time.Time
	Executables []string      // the swarm-guard binaries, protected from the agent
	Deadline    time.Duration // 0 means decide.DefaultDeadline
}

// Response is the hook's answer.
type Response struct {
	Exit   int
	Stdout string
	Stderr string
}

// Handle answers one hook event: it reads the event from stdin, has
// package decide judge it with the hook's effects (audit log and the
// rest), and renders the answer in the hook protocol. It never panics.
func Handle(rt Runtime) (resp Response) {
	defer func() {
		if r := recover(); r != nil {
			resp = Render("", decide.InternalError(r))
		}
	}()
	data, err := io.ReadAll(io.LimitReader(rt.Stdin, MaxInputBytes+1))
	switch {
	case err != nil:
		return Render("", decide.Refuse("could not read the hook input: "+err.Error()+". Claude Code must send the event JSON on stdin."))
	case len(bytes.TrimSpace(data)) == 0:
		return Render("", decide.Refuse("the hook input on stdin was empty. Run swarm-guard hook only from Claude Code, which sends the event as JSON on stdin."))
	case len(data) > MaxInputBytes:
		return Render("", decide.Refuse(fmt.Sprintf("the hook input is over %d MiB. Split the write into smaller files.", MaxInputBytes>>20)))
	}
	var ev event.Event
	if err := event.Decode(data, &ev); err != nil {
		return Render("", decide.Refuse("the hook input is not valid JSON ("+decide.JSONError(err)+"). Claude Code sends one JSON object per hook call."))
	}
	a := decide.Decide(&ev, decide.Facts{Getenv: rt.Getenv, Now: rt.Now, Executables: rt.Executables, Deadline: rt.Deadline, Effects: true})
	return Render(ev.HookEventName, a)
}

// Render is an answer in Claude Code's hook protocol. The security
// boundary is the exit code: a PreToolUse denial is exit 2, the one form
// every Claude Code version honours, with the permissionDecision "deny"
// JSON on stdout whose reason is what the model reads (and that denies on
// its own where a client reads the JSON first) and the same line on
// stderr; "ask" is
// JSON on stdout with exit 0; no decision is exit 0 with empty stdout (the
// guard never answers "allow"); warn is additionalContext JSON with exit
// 0, log is silent. On PostToolUse the tool already ran: what the agent
// must repair is additionalContext (not a "block", which the client frames
// as an error with the whole hook command), with the output the model
// reads instead under hookSpecificOutput.updatedToolOutput (Claude Code
// 2.1.121 and later). Notes for the operator go to stderr, which Claude Code keeps
// in its debug log.
func Render(hookEvent string, a decide.Answer) Response {
	var r Response
	switch {
	case (hookEvent == event.PostToolUse || hookEvent == event.PostToolUseFailure) && a.Action == policy.Deny:
		r.Stdout = postContextJSON(hookEvent, a)
	case a.Action == policy.Deny && hookEvent == event.PreToolUse:
		// Exit 2 blocks on every client version; the JSON's reason is
		// what the model reads (exit 2 alone hands it the whole hook
		// command in front of the message); stderr is the same line for
		// the client's debug log.
		r.Exit, r.Stdout, r.Stderr = ExitDeny, denyJSON(a.Message), oneLine(a.Message)+"\n"
	case a.Action == policy.Deny:
		r.Exit, r.Stderr = ExitDeny, oneLine(a.Message)+"\n"
	case a.Action == policy.Ask:
		r.Stdout = askJSON(a.Message)
	case a.Action == policy.Warn:
		// The call runs; the model reads the warning beside it
		// (PreToolUse additionalContext: e2e warn-mode). No
		// permissionDecision: the hook never grants what the
		// client's own permission rules would not.
		r.Stdout = contextJSON(a.Message)
	}
	for _, n := range a.Notes {
		r.Stderr += oneLine(n) + "\n"
	}
	return r
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// preToolUseOutput is the JSON answer for "ask".
type preToolUseOutput struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision,omitempty"`
		PermissionDecisionReason string `json:"permissionDecisionReason,omitempty"`
		AdditionalContext        string `json:"additionalContext,omitempty"`
	} `json:"hookSpecificOutput"`
}

func askJSON(reason string) string {
	var o preToolUseOutput
	o.HookSpecificOutput.HookEventName = event.PreToolUse
	o.HookSpecificOutput.PermissionDecision = "ask"
	o.HookSpecificOutput.PermissionDecisionReason = reason
	b, _ := json.Marshal(o)
	return string(b) + "\n"
}

// denyJSON is a PreToolUse denial whose reason the model reads as it
// stands (Claude Code 2.1.330: "PreToolUse:Bash hook error: " and the
// reason, where exit 2 alone puts the hook command in between).
func denyJSON(reason string) string {
	var o preToolUseOutput
	o.HookSpecificOutput.HookEventName = event.PreToolUse
	o.HookSpecificOutput.PermissionDecision = "deny"
	o.HookSpecificOutput.PermissionDecisionReason = oneLine(reason)
	b, _ := json.Marshal(o)
	return string(b) + "\n"
}

// postContextJSON is PostToolUse's answer when the agent must repair what
// the call did: the reason as additionalContext, which the model reads
// next to the result ("PostToolUse:Bash hook additional context: " and
// the reason), where {"decision":"block"} is framed as a blocking error
// with the whole hook command; and, when part of the output is withheld,
// the output the model reads instead (updatedToolOutput, Claude Code
// 2.1.121 and later).
func postContextJSON(hookEvent string, a decide.Answer) string {
	type specific struct {
		HookEventName     string          `json:"hookEventName"`
		AdditionalContext string          `json:"additionalContext"`
		UpdatedToolOutput json.RawMessage `json:"updatedToolOutput,omitempty"`
	}
	out, _ := json.Marshal(struct {
		Specific specific `json:"hookSpecificOutput"`
	}{specific{HookEventName: hookEvent, AdditionalContext: a.Message, UpdatedToolOutput: a.UpdatedOutput}})
	return string(out) + "\n"
}

// contextJSON is a PreToolUse answer that lets the call run and hands the
// model a note beside it (additionalContext, delivered since client
// 2.1.9): how warn mode tells the agent what would have been denied.
func contextJSON(note string) string {
	var o preToolUseOutput
	o.HookSpecificOutput.HookEventName = event.PreToolUse
	o.HookSpecificOutput.AdditionalContext = note
	b, _ := json.Marshal(o)
	return string(b) + "\n"
}
