package agentrun

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

// runOutput shows what a wrapped agent does. For claude it turns the
// stream-json into one line per step (tool calls, text, the result); on a
// terminal a status line at the bottom also shows the turn, the tokens and
// the elapsed time, refreshed every second. Other programs' output passes
// through unchanged.
type runOutput struct {
	mu       sync.Mutex
	w        io.Writer
	errw     io.Writer
	now      func() time.Time
	tty      bool
	summary  bool // claude mode
	start    time.Time
	turn     int64
	tokens   int64
	doing    string
	shown    bool // the status line is on screen
	stopTick chan struct{}
	ticker   sync.WaitGroup
}

func newRunOutput(w io.Writer, now func() time.Time) *runOutput {
	return &runOutput{w: w, now: now, tty: isTerminal(w)}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// begin starts showing one attempt.
func (o *runOutput) begin(start time.Time, summary bool) {
	o.mu.Lock()
	o.start, o.summary, o.turn, o.tokens, o.doing = start, summary, 0, 0, "starting"
	o.mu.Unlock()
	if o.tty && summary {
		o.stopTick = make(chan struct{})
		o.ticker.Add(1)
		go func() {
			defer o.ticker.Done()
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-o.stopTick:
					return
				case <-t.C:
					o.mu.Lock()
					o.drawStatus()
					o.mu.Unlock()
				}
			}
		}()
	}
}

// end stops the status line of an attempt.
func (o *runOutput) end() {
	if o.stopTick != nil {
		close(o.stopTick)
		o.ticker.Wait()
		o.stopTick = nil
	}
	o.mu.Lock()
	o.clearStatus()
	o.mu.Unlock()
}

// show displays one line of the agent's output.
func (o *runOutput) show(ev budget.Event, raw []byte, usage budget.Usage) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.summary {
		o.w.Write(raw)
		return
	}
	o.turn, o.tokens = ev.Turn, usage.Budgeted()
	switch ev.Kind {
	case budget.EventOther:
		// Not stream-json: claude's own error messages, for example.
		if text := strings.TrimRight(string(raw), "\r\n"); strings.TrimSpace(text) != "" {
			o.println(text)
		}
	case budget.EventInit:
		o.println(fmt.Sprintf("session %s · %s · claude %s", ev.SessionID, ev.Model, ev.Version))
	case budget.EventSystem:
		switch ev.Subtype {
		case "api_retry":
			o.println("API error; claude is retrying")
		case "compact_boundary":
			o.println("context compacted")
		}
	case budget.EventAssistant:
		who := fmt.Sprintf("turn %d", ev.Turn)
		if ev.Subagent {
			who = "subagent"
		}
		for _, b := range ev.Blocks {
			step := b.Text
			if b.Tool != "" {
				step = b.Tool
				if b.Text != "" {
					step += ": " + b.Text
				}
			}
			o.doing = step
			o.println(who + " · " + step)
		}
	case budget.EventResult:
		r := ev.Result
		o.doing = "finished"
		line := "result: " + r.Subtype
		if r.IsError {
			line += " (error)"
		}
		line += fmt.Sprintf(" · %d turns · %s tokens", ev.Turn, budget.Count(usage.Budgeted()))
		if r.HasCost {
			line += fmt.Sprintf(" · $%.2f", r.CostUSD)
		}
		o.println(line)
		if len(r.Errors) > 0 {
			o.println("errors: " + strings.Join(r.Errors, "; "))
		}
		if text := strings.TrimSpace(r.Text); text != "" {
			o.clearStatus()
			fmt.Fprintln(o.w, text)
		}
	}
}

// attemptSummary prints the tokens by kind of a finished attempt.
func (o *runOutput) attemptSummary(rec budget.Attempt) {
	o.mu.Lock()
	defer o.mu.Unlock()
	line := fmt.Sprintf("attempt %d: %s · %d turns · %s", rec.Attempt, rec.Outcome, rec.Turns, rec.Tokens)
	if rec.CostUSD != nil {
		line += fmt.Sprintf(" · $%.2f", *rec.CostUSD)
	}
	fmt.Fprintf(o.w, "%s · %v\n", line, (time.Duration(rec.DurationMS) * time.Millisecond).Round(100*time.Millisecond))
}

// println prints a permanent line, prefixed with the elapsed time, above
// the status line.
func (o *runOutput) println(s string) {
	o.clearStatus()
	fmt.Fprintf(o.w, "[%s] %s\n", elapsed(o.now().Sub(o.start)), s)
	if o.tty {
		o.drawStatus()
	}
}

func (o *runOutput) drawStatus() {
	if !o.tty || !o.summary {
		return
	}
	s := fmt.Sprintf("… %s · turn %d · %s tokens · %s", elapsed(o.now().Sub(o.start)), o.turn, budget.Count(o.tokens), o.doing)
	if r := []rune(s); len(r) > 100 {
		s = string(r[:99]) + "…"
	}
	fmt.Fprint(o.w, "\r\x1b[K"+s)
	o.shown = true
}

func (o *runOutput) clearStatus() {
	if o.shown {
		fmt.Fprint(o.w, "\r\x1b[K")
		o.shown = false
	}
}

// elapsed formats a duration as m:ss or h:mm:ss.
func elapsed(d time.Duration) string {
	s := int64(d / time.Second)
	if s < 0 {
		s = 0
	}
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
