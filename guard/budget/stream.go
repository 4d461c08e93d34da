package budget

import "bytes"

// EventKind says what a stream-json line was.
type EventKind int

const (
	EventOther     EventKind = iota // not a stream-json object, or a type the budget ignores
	EventInit                       // system/init: the session starts
	EventSystem                     // another system line (api_retry, compact_boundary, hooks, ...)
	EventAssistant                  // an assistant message (one content block per line)
	EventUser                       // a user message: a prompt or tool results
	EventResult                     // the final result
)

// Event is what one line told the accounting, for the wrapper to show. Its
// slices are only valid until the next call to Stream.Line.
type Event struct {
	Kind     EventKind
	Subtype  string // system lines: the subtype
	NewTurn  bool   // the line starts a new main-thread turn
	Turn     int64  // the main-thread turn count after this line
	Subagent bool   // the message comes from a subagent
	Blocks   []Block
	Result   *Result // EventResult only

	// EventInit only.
	SessionID, Model, Version string
}

// Block is one content block of an assistant message, as a summary.
type Block struct {
	Tool string // tool name for a tool_use block, "" for text
	Text string // first line of the text, or the tool's main argument
}

// Result is the final result line of a run.
type Result struct {
	Subtype        string   // success, error_max_turns, error_max_budget_usd, error_during_execution, ...
	IsError        bool     // success with is_error means the turn ended on an API error
	NumTurns       int64    // claude's own turn count
	CostUSD        float64  // total_cost_usd
	HasCost        bool     // total_cost_usd was present
	DurationMS     int64    // duration_ms
	Text           string   // the result text (the agent's final answer or the error)
	Errors         []string // errors[] of error results
	TerminalReason string   // terminal_reason when present
	SessionID      string

	Usage    Usage // modelUsage summed over models when present, else usage
	HasUsage bool  // usage or modelUsage was present
	ByModel  bool  // Usage came from modelUsage, which includes subagents
}

// Success reports whether the result is a successful end of the run.
func (r *Result) Success() bool { return r != nil && r.Subtype == "success" && !r.IsError }

// Stream accounts one agent process's stream-json output. The zero value
// is ready to use. It is not safe for concurrent use.
type Stream struct {
	// Details asks Line to fill Event.Blocks with summaries of content
	// blocks (tool names and arguments, text). Counting does not need them.
	Details bool

	turns    int64
	seen     map[string]Usage // message id -> usage counted for it
	streamed Usage            // deduplicated usage of every assistant message
	side     Usage            // the part of streamed that came from subagents
	result   *Result
	session  string
	blocks   []Block
}

// Turns is the number of distinct main-thread assistant messages so far.
func (s *Stream) Turns() int64 { return s.turns }

// Result is the last result line seen, or nil.
func (s *Stream) Result() *Result { return s.result }

// SessionID is the session id from the init or result line.
func (s *Stream) SessionID() string { return s.session }

// Usage is the best count so far: the result's modelUsage once it arrived
// (authoritative: it includes subagents and the real output counts), its
// main-loop usage plus the streamed subagent usage when only that was
// reported, else the deduplicated sum of the streamed messages.
func (s *Stream) Usage() Usage {
	if r := s.result; r != nil && r.HasUsage {
		if r.ByModel {
			return r.Usage
		}
		return r.Usage.Add(s.side)
	}
	return s.streamed
}

// Streamed is the deduplicated sum of the assistant messages seen, whatever
// the result says.
func (s *Stream) Streamed() Usage { return s.streamed }

// userPrefix starts almost every user line of stream-json: tool results,
// which are most of the bytes of a stream and of no interest to budgets.
var userPrefix = []byte(`{"type":"user"`)

// Line accounts one line of output (with or without its newline).
func (s *Stream) Line(line []byte) Event {
	s.blocks = s.blocks[:0]
	if bytes.HasPrefix(line, userPrefix) {
		return Event{Kind: EventUser, Turn: s.turns}
	}
	i := skipSpace(line, 0)
	if i >= len(line) || line[i] != '{' {
		return Event{Kind: EventOther, Turn: s.turns}
	}
	var f topFields
	if !f.scan(line, i) {
		return Event{Kind: EventOther, Turn: s.turns}
	}
	switch string(f.typ) {
	case "assistant":
		return s.assistant(line, &f)
	case "user":
		return Event{Kind: EventUser, Turn: s.turns}
	case "result":
		return s.resultLine(line, i)
	case "system":
		ev := Event{Kind: EventSystem, Subtype: unescape(f.subtype), Turn: s.turns}
		if ev.Subtype == "init" {
			ev.Kind = EventInit
			ev.SessionID, ev.Model, ev.Version = unescape(f.session), unescape(f.model), unescape(f.version)
			if ev.SessionID != "" {
				s.session = ev.SessionID
			}
		}
		return ev
	}
	return Event{Kind: EventOther, Turn: s.turns}
}

// topFields are the top-level fields of a line the accounting reads. The
// scan records where values are; key order varies between stream-json and
// transcripts, so nothing is interpreted until the whole object was seen.
type topFields struct {
	typ, subtype, session, model, version []byte
	message                               int  // index of the message object, 0 when absent
	parentSet                             bool // parent_tool_use_id is present and not null
	sidechain                             bool // isSidechain: true (transcripts of subagents)
	apiError                              bool // isApiErrorMessage: true
}

func (f *topFields) scan(b []byte, i int) bool {
	end := eachField(b, i, func(key []byte, v int) int {
		switch string(key) {
		case "type":
			return stringField(b, v, &f.typ)
		case "subtype":
			return stringField(b, v, &f.subtype)
		case "session_id":
			return stringField(b, v, &f.session)
		case "model":
			return stringField(b, v, &f.model)
		case "claude_code_version":
			return stringField(b, v, &f.version)
		case "message":
			f.message = v
		case "parent_tool_use_id":
			f.parentSet = !literal(b, v, "null")
		case "isSidechain":
			f.sidechain = literal(b, v, "true")
		case "isApiErrorMessage":
			f.apiError = literal(b, v, "true")
		}
		return 0
	})
	return end > 0
}

// stringField stores the raw string at b[v] in dst and returns where it
// ends, as an eachField callback does.
func stringField(b []byte, v int, dst *[]byte) int {
	raw, end, _ := rawString(b, v)
	*dst = raw
	return end
}

// message is what the accounting reads from an assistant message object.
type message struct {
	id, model []byte
	usage     Usage
	hasUsage  bool
}

// scanMessage reads an assistant message object, summarising its content
// blocks into blocks when details is set.
func scanMessage(b []byte, i int, details bool, blocks *[]Block) (message, bool) {
	var m message
	end := eachField(b, i, func(key []byte, v int) int {
		switch string(key) {
		case "id":
			return stringField(b, v, &m.id)
		case "model":
			return stringField(b, v, &m.model)
		case "usage":
			end, ok := scanUsage(b, v, &m.usage)
			m.hasUsage = ok
			return end
		case "content":
			if details {
				return scanContent(b, v, blocks)
			}
		}
		return 0
	})
	return m, end > 0
}

// scanUsage reads an API usage object (snake_case keys).
func scanUsage(b []byte, i int, u *Usage) (int, bool) {
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	end := eachField(b, i, func(key []byte, v int) int {
		var dst *int64
		switch string(key) {
		case "input_tokens":
			dst = &u.Input
		case "output_tokens":
			dst = &u.Output
		case "cache_creation_input_tokens":
			dst = &u.CacheCreation
		case "cache_read_input_tokens":
			dst = &u.CacheRead
		default:
			return 0
		}
		n, _, end, ok := number(b, v)
		if ok {
			*dst = n
		}
		return end
	})
	return end, end > 0
}

// scanModelUsage sums a result's modelUsage object (camelCase keys) over
// its models.
func scanModelUsage(b []byte, i int, u *Usage) (int, bool) {
	if i >= len(b) || b[i] != '{' {
		return 0, false
	}
	end := eachField(b, i, func(_ []byte, v int) int {
		return eachField(b, v, func(key []byte, w int) int {
			var dst *int64
			switch string(key) {
			case "inputTokens":
				dst = &u.Input
			case "outputTokens":
				dst = &u.Output
			case "cacheCreationInputTokens":
				dst = &u.CacheCreation
			case "cacheReadInputTokens":
				dst = &u.CacheRead
			default:
				return 0
			}
			n, _, end, ok := number(b, w)
			if ok {
				*dst += n
			}
			return end
		})
	})
	return end, end > 0
}

// toolArgKeys are the tool_use input fields that say best what a call
// does, in order of preference.
var toolArgKeys = [...]string{"command", "file_path", "notebook_path", "path", "pattern", "url", "query", "description", "prompt", "subject"}

// scanContent summarises the content blocks of an assistant message.
func scanContent(b []byte, i int, blocks *[]Block) int {
	if i >= len(b) || b[i] != '[' {
		return 0
	}
	return eachElem(b, i, func(v int) int {
		var typ, name, text []byte
		args := [len(toolArgKeys)][]byte{}
		end := eachField(b, v, func(key []byte, w int) int {
			switch string(key) {
			case "type":
				raw, end, _ := rawString(b, w)
				typ = raw
				return end
			case "name":
				raw, end, _ := rawString(b, w)
				name = raw
				return end
			case "text":
				raw, end, _ := rawString(b, w)
				text = raw
				return end
			case "input":
				return eachField(b, w, func(k []byte, x int) int {
					for n, want := range toolArgKeys {
						if string(k) == want {
							raw, end, ok := rawString(b, x)
							if ok {
								args[n] = raw
							}
							return end
						}
					}
					return 0
				})
			}
			return 0
		})
		switch string(typ) {
		case "tool_use", "server_tool_use":
			blk := Block{Tool: unescape(name)}
			for _, a := range args {
				if a != nil {
					blk.Text = snippet(a, 80)
					break
				}
			}
			*blocks = append(*blocks, blk)
		case "text":
			if t := snippet(text, 100); t != "" {
				*blocks = append(*blocks, Block{Text: t})
			}
		}
		return end
	})
}

func (s *Stream) assistant(line []byte, f *topFields) Event {
	ev := Event{Kind: EventAssistant, Subagent: f.parentSet || f.sidechain}
	if f.message == 0 {
		ev.Turn = s.turns
		return ev
	}
	m, ok := scanMessage(line, f.message, s.Details, &s.blocks)
	ev.Blocks = s.blocks
	if !ok || f.apiError || string(m.model) == "<synthetic>" {
		// Synthetic messages and API error notices are written by Claude
		// Code itself: no model round trip, no tokens.
		ev.Turn = s.turns
		return ev
	}
	main := !ev.Subagent
	switch {
	case len(m.id) == 0:
		// No id to deduplicate by: count the line on its own.
		s.streamed = s.streamed.Add(m.usage)
		if !main {
			s.side = s.side.Add(m.usage)
		}
		if main {
			s.turns++
			ev.NewTurn = true
		}
	default:
		if s.seen == nil {
			s.seen = make(map[string]Usage)
		}
		prev, dup := s.seen[string(m.id)]
		counted := prev.Max(m.usage)
		delta := counted.Sub(prev)
		s.seen[string(m.id)] = counted
		s.streamed = s.streamed.Add(delta)
		if !main {
			s.side = s.side.Add(delta)
		}
		if !dup && main {
			s.turns++
			ev.NewTurn = true
		}
	}
	ev.Turn = s.turns
	return ev
}

func (s *Stream) resultLine(line []byte, i int) Event {
	r := &Result{}
	var usage, byModel Usage
	hasUsage, hasModel := false, false
	eachField(line, i, func(key []byte, v int) int {
		switch string(key) {
		case "subtype":
			raw, end, _ := rawString(line, v)
			r.Subtype = unescape(raw)
			return end
		case "is_error":
			r.IsError = literal(line, v, "true")
		case "num_turns":
			n, _, end, _ := number(line, v)
			r.NumTurns = n
			return end
		case "total_cost_usd":
			_, f, end, ok := number(line, v)
			r.CostUSD, r.HasCost = f, ok
			return end
		case "duration_ms":
			n, _, end, _ := number(line, v)
			r.DurationMS = n
			return end
		case "result":
			raw, end, ok := rawString(line, v)
			if ok {
				r.Text = unescape(raw)
			}
			return end
		case "terminal_reason":
			raw, end, _ := rawString(line, v)
			r.TerminalReason = unescape(raw)
			return end
		case "session_id":
			raw, end, _ := rawString(line, v)
			r.SessionID = unescape(raw)
			return end
		case "errors":
			return eachElem(line, v, func(w int) int {
				raw, end, ok := rawString(line, w)
				if ok {
					r.Errors = append(r.Errors, unescape(raw))
				}
				return end
			})
		case "usage":
			end, ok := scanUsage(line, v, &usage)
			hasUsage = ok
			return end
		case "modelUsage":
			end, ok := scanModelUsage(line, v, &byModel)
			hasModel = ok && !byModel.IsZero()
			return end
		}
		return 0
	})
	switch {
	case hasModel:
		r.Usage, r.HasUsage, r.ByModel = byModel, true, true
	case hasUsage:
		r.Usage, r.HasUsage = usage, true
	}
	if r.SessionID != "" {
		s.session = r.SessionID
	}
	s.result = r
	return Event{Kind: EventResult, Result: r, Turn: s.turns}
}
