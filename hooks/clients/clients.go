package clients

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/swarm-guard/swarm-guard/hooks/internal/jsonobj"
)

// Name is an agent client swarm-guard guards.
type Name string

// The clients. Claude is Claude Code, the pipeline's own protocol.
const (
	Claude   Name = "claude"
	Codex    Name = "codex"
	Gemini   Name = "gemini"
	Copilot  Name = "copilot"
	OpenCode Name = "opencode"
	Qwen     Name = "qwen"
	Droid    Name = "droid"
)

// Others are the clients other than Claude Code, in the order install
// and doctor list them.
var Others = []Name{Codex, Gemini, Copilot, OpenCode, Qwen, Droid}

// Parse reads a client's name as the --client flag takes it.
func Parse(s string) (Name, error) {
	n := Name(strings.ToLower(strings.TrimSpace(s)))
	switch n {
	case Claude, Codex, Gemini, Copilot, OpenCode, Qwen, Droid:
		return n, nil
	case "claude-code":
		return Claude, nil
	case "gemini-cli":
		return Gemini, nil
	case "copilot-cli":
		return Copilot, nil
	case "qwen-code":
		return Qwen, nil
	case "factory":
		return Droid, nil
	}
	return "", fmt.Errorf("unknown client %q (known: claude, codex, gemini, copilot, opencode, qwen, droid)", s)
}

// ParseList reads a comma-separated list of clients (install --client).
func ParseList(s string) ([]Name, error) {
	var out []Name
	for _, f := range strings.Split(s, ",") {
		if strings.TrimSpace(f) == "" {
			continue
		}
		n, err := Parse(f)
		if err != nil {
			return nil, err
		}
		if !contains(out, n) {
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no client named in %q", s)
	}
	return out, nil
}

func contains(ns []Name, n Name) bool {
	for _, x := range ns {
		if x == n {
			return true
		}
	}
	return false
}

// Detect names the client that sent a hook event, from the event's
// top-level members only (a tool's arguments are the agent's to choose):
// Gemini's BeforeTool/AfterTool, Copilot's camelCase toolName, Codex's
// turn_id, Qwen's run_shell_command and Droid's Execute in a Claude-shaped
// event, and Copilot's Claude-format event (a timestamp, no
// transcript_path). Anything else is Claude Code's. It is the fallback for a hook
// command without --client; installs always pass the flag.
func Detect(data []byte) Name {
	var event, tool string
	var turnID, toolName, toolArgs, timestamp, transcript bool
	ok := jsonobj.Members(data, func(key string, raw []byte) bool {
		switch key {
		case "hook_event_name":
			event, _ = jsonobj.String(raw)
		case "tool_name":
			tool, _ = jsonobj.String(raw)
		case "turn_id":
			turnID = true
		case "toolName":
			toolName = true
		case "toolArgs", "toolResult":
			toolArgs = true
		case "timestamp":
			timestamp = true
		case "transcript_path":
			transcript = true
		}
		return true
	})
	if !ok {
		return Claude // not an object: the Claude adapter says why
	}
	switch {
	case event == "BeforeTool" || event == "AfterTool":
		return Gemini
	case event == "" && toolName && toolArgs:
		return Copilot
	case event == "tool.execute.before" || event == "tool.execute.after":
		return OpenCode
	case turnID:
		return Codex
	case timestamp && !transcript && (event == "PreToolUse" || event == "PostToolUse" || event == "PostToolUseFailure"):
		// Copilot CLI running the Claude-format hooks of
		// .claude/settings.json: Claude's names, but its own tool
		// arguments (a Write's path and file_text), a timestamp Claude Code
		// never sends and no transcript_path, which Claude Code always does.
		return Copilot
	case tool == "run_shell_command" || tool == "write_file" || tool == "read_file":
		return Qwen
	case tool == "Execute" || tool == "Create" || tool == "ApplyPatch":
		return Droid
	}
	return Claude
}

// MayBeOther reports, without decoding, whether an event could come from
// a client other than Claude Code: the Claude hook's hot path asks Detect
// only then. A false positive costs one decoding of the top-level members.
func MayBeOther(data []byte) bool {
	for _, s := range []string{`"BeforeTool"`, `"AfterTool"`, `"toolName"`, `"turn_id"`, `"run_shell_command"`, `"write_file"`, `"read_file"`, `"Execute"`, `"Create"`, `"ApplyPatch"`, `"tool.execute.`, `"timestamp"`} {
		if strings.Contains(string(data), s) {
			return true
		}
	}
	return false
}

// Answer is what a hook process writes and how it exits.
type Answer struct {
	Exit   int
	Stdout string
	Stderr string
}

// Pipeline answers one Claude-shaped hook event the way swarm-guard's
// Claude Code hook does (exit 2 and the reason on stderr for a denial, the
// JSON of an "ask" or of a PostToolUse block on stdout).
type Pipeline func(event []byte) Answer

// Carry keeps warn mode's warning from a client's before-tool hook to its
// after-tool hook, for the clients whose before-tool answer cannot hand
// the model a note beside a call it lets run (Gemini CLI, Qwen Code,
// Droid, opencode): there the note reaches the model with the call's
// result. Keys name one call of one session.
type Carry interface {
	Put(key, note string)
	Take(key string) string
}

// Handle answers one event of client c: normalise, decide each call, and
// render in the client's format. post says the hook was installed for the
// client's after-tool event (--post), for clients whose payload does not
// name its event. carry (nil: none) hands warn mode's warnings to the
// after-tool hook where the client needs it.
func Handle(c Name, post bool, data []byte, run Pipeline, carry Carry) Answer {
	a := adapterFor(c)
	ev, err := a.normalize(data, post)
	if err != nil {
		return a.render(ev, verdict{deny: true, reason: "swarm-guard blocked this call (rule bad-input): " + err.Error()})
	}
	if len(ev.calls) == 0 {
		return Answer{}
	}
	var v verdict
	notes, warn := "", ""
	for _, call := range ev.calls {
		cv := readAnswer(run(call), ev.post)
		notes += cv.notes
		if cv.deny {
			v = cv
			break // the first denial decides; the other files need not be judged
		}
		if (cv.ask || cv.block) && !v.ask && !v.block {
			v = cv
		}
		if cv.warn != "" && !strings.Contains(warn, cv.warn) {
			warn = strings.TrimSpace(warn + "\n" + cv.warn)
		}
	}
	if !v.deny && !ev.post && ev.gitHooksOff != "" {
		if hv, ok := checkGitHooksOff(ev.gitHooksOff, ev.calls); ok {
			v = hv
		}
	}
	v.notes = notes
	if !v.deny && !v.ask {
		v.warn = warn
	}
	if carry != nil {
		if !a.warnsBefore() {
			key := carryKey(ev)
			switch {
			case !ev.post && v.warn != "":
				carry.Put(key, v.warn)
				v.warn = ""
			case ev.post:
				if w := carry.Take(key); w != "" && !strings.Contains(v.warn, w) {
					v.warn = strings.TrimSpace(w + "\n" + v.warn)
				}
			}
		}
	}
	return a.render(ev, v)
}

// carryKey names one call of one session the same way before and after
// the tool: its session, its first Claude-shaped tool and that tool's input.
func carryKey(ev *event) string {
	var c call
	if len(ev.calls) > 0 {
		_ = json.Unmarshal(ev.calls[0], &c)
	}
	sum := sha256.Sum256([]byte(c.SessionID + "\x00" + string(c.Client) + "\x00" + c.ToolName + "\x00" + string(c.ToolInput)))
	return hex.EncodeToString(sum[:16])
}

// adapter is one client's protocol.
type adapter interface {
	// normalize turns the client's event into Claude-shaped events.
	normalize(data []byte, post bool) (*event, error)
	// render answers in the client's format.
	render(ev *event, v verdict) Answer
	// warnsBefore says the client hands the model a note from the
	// before-tool hook while it runs the call (Codex's, Claude's and
	// Copilot CLI's additionalContext): warn mode's warning goes there;
	// otherwise it is carried to the after-tool hook (Carry).
	warnsBefore() bool
}

func adapterFor(c Name) adapter {
	switch c {
	case Codex:
		return codex{}
	case Gemini:
		return gemini{}
	case Copilot:
		return copilot{}
	case OpenCode:
		return opencode{}
	case Qwen:
		return claudeShaped{name: Qwen}
	case Droid:
		return claudeShaped{name: Droid}
	}
	return claudeShaped{name: Claude}
}

// event is a client's event, normalised.
type event struct {
	post  bool     // an after-tool event: the tool already ran
	calls [][]byte // Claude-shaped events for the pipeline, one per file of a patch
	// output is what the tool returned as the model would read it
	// (after-tool events), so a render can give it back with the
	// guard's notice when the client replaces the result wholesale.
	output string
	// shaped says the pipeline's tool_response was built from output in
	// Claude's Bash shape ({"stdout": ...}) or Read shape, so a withheld
	// version can be read back as text.
	shaped bool
	// claudeFormat says a Copilot event came in Claude's format and is
	// answered in it.
	claudeFormat bool
	// gitHooksOff names a client that runs shell commands with git's
	// hooks off (Gemini CLI): a commit or push is denied with the command
	// that turns them back on (githooksoff.go).
	gitHooksOff string
}

// verdict is the pipeline's answer, read.
type verdict struct {
	deny, ask bool
	block     bool   // after-tool: the output is withheld or the agent must repair something
	reason    string // one line
	warn      string // warn mode: what would have been denied; the call runs
	replaced  *string
	notes     string // stderr lines that decide nothing
}

// readAnswer reads a Claude hook answer.
func readAnswer(a Answer, post bool) verdict {
	var v verdict
	switch a.Exit {
	case 0:
	case 2:
		v.deny = true
		v.reason = oneLine(a.Stderr)
		if v.reason == "" {
			v.reason = "swarm-guard blocked this call."
		}
		return v
	default:
		v.deny = true
		v.reason = fmt.Sprintf("swarm-guard blocked this call (rule internal-error): the decision ended with exit %d: %s", a.Exit, oneLine(a.Stderr))
		return v
	}
	v.notes = a.Stderr
	out := strings.TrimSpace(a.Stdout)
	if out == "" {
		return v
	}
	var o struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
		HSO      struct {
			PermissionDecision       string          `json:"permissionDecision"`
			PermissionDecisionReason string          `json:"permissionDecisionReason"`
			AdditionalContext        string          `json:"additionalContext"`
			UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil {
		v.deny = true
		v.reason = "swarm-guard blocked this call (rule internal-error): the decision's answer is not JSON: " + err.Error()
		return v
	}
	switch {
	case o.HSO.PermissionDecision == "deny":
		v.deny, v.reason = true, oneLine(o.HSO.PermissionDecisionReason)
	case o.HSO.PermissionDecision == "ask":
		v.ask, v.reason = true, oneLine(o.HSO.PermissionDecisionReason)
	case !post && o.HSO.AdditionalContext != "" && o.Decision == "":
		// warn mode (hooks/claude.Render): the call runs, and the model
		// should read what would have been denied.
		v.warn = o.HSO.AdditionalContext
	case post && o.HSO.AdditionalContext != "":
		// After the tool, Claude's answer hands what the agent must
		// repair as additionalContext (hooks/claude.Render).
		o.Decision, o.Reason = "block", o.HSO.AdditionalContext
		fallthrough
	case o.Decision == "block":
		if !post {
			v.deny, v.reason = true, oneLine(o.Reason)
			return v
		}
		v.block, v.reason = true, oneLine(o.Reason)
		if len(o.HSO.UpdatedToolOutput) > 0 && !jsonobj.Null(o.HSO.UpdatedToolOutput) {
			t := outputText(o.HSO.UpdatedToolOutput)
			v.replaced = &t
		}
	}
	return v
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// askReason is the reason a client without an "ask" of its own reads: a
// headless agent has nobody to ask, so an ask is a denial.
func askReason(reason string) string {
	return reason + " (this needs a human's approval, which this client cannot ask for in a hook: the call is blocked; ask the human to run it)"
}

// shownAfter is the text an after-tool render hands the model in place of
// the tool's result: the result (with the withheld lines replaced, when
// the pipeline withheld any), then the guard's notice.
func shownAfter(ev *event, v verdict) string {
	text := ev.output
	if v.replaced != nil {
		text = *v.replaced
	}
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	if v.warn != "" {
		text += "[swarm-guard] " + v.warn + "\n"
	}
	return text + "[swarm-guard] " + v.reason
}

// jsonErr is the bad-input message for an event that is not JSON.
func jsonErr(client string, err error) error {
	return fmt.Errorf("the %s hook input is not a JSON object (%v); the client sends one per hook call, so check the hook command it runs", client, err)
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
