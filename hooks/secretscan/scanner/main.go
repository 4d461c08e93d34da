package scanner

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/rs/zerolog"
	"github.com/zricethezav/gitleaks/v8/logging"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/wire"
)

// memoryLimit is the heap size at which the scanner starts collecting.
const memoryLimit = 256 << 20

// serveGCPercent is the scan server's GOGC.
const serveGCPercent = 400

// Exit codes of swarm-guard-secrets.
const (
	ExitOK    = 0 // a Result was written; it may hold findings
	ExitError = 2 // the scan failed; the Result's Error and the last stderr line say why
)

const usage = `Usage: swarm-guard-secrets

The secret scanner of swarm-guard (gitleaks %s rules). It reads a scan
request as JSON lines on stdin and writes the result as JSON on stdout. It
is run by swarm-guard (hook, scan, git-hook pre-commit) and is not meant to
be run by hand: use ` + "`swarm-guard scan`" + ` instead.
`

// Main runs the scanner process and returns its exit code. A panic never
// escapes: it becomes an error result.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	res := wire.Result{Version: wire.Version, Findings: []wire.Finding{}}
	fail := func(err error) int {
		res.Error = err.Error()
		res.Findings = []wire.Finding{}
		// Best effort: the exit code and the stderr line carry the error
		// even if stdout is gone.
		_ = writeResult(stdout, res)
		fmt.Fprintf(stderr, "swarm-guard-secrets: %s\n", res.Error)
		return ExitError
	}
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("SWARM_GUARD_DEBUG") != "" {
				stderr.Write(debug.Stack())
			}
			code = fail(fmt.Errorf("internal error: %v; nothing was scanned, report this", r))
		}
	}()
	for _, a := range args {
		switch a {
		case "-h", "--help":
			fmt.Fprintf(stdout, usage, defaultRulesVersion)
			return ExitOK
		case "--version":
			fmt.Fprintf(stdout, "swarm-guard-secrets protocol %d, gitleaks rules %s\n", wire.Version, defaultRulesVersion)
			return ExitOK
		}
	}
	if len(args) == 2 && args[0] == "--serve" {
		// The scan server the hook starts in the background (serve.go).
		logging.Logger = zerolog.Nop()
		debug.SetMemoryLimit(memoryLimit)
		// A collection per request or two at the default GOGC: the live
		// heap (the compiled rules) is small next to what one 10 KB scan
		// allocates, and the hook waits while the collector takes a core.
		debug.SetGCPercent(serveGCPercent)
		serveProcs.narrow()
		if err := Serve(args[1]); err != nil {
			fmt.Fprintf(stderr, "swarm-guard-secrets: %v\n", err)
			return ExitError
		}
		return ExitOK
	}
	for _, a := range args {
		switch a {
		default:
			return fail(fmt.Errorf("unexpected argument %q; swarm-guard-secrets takes its request on stdin", a))
		}
	}
	// A scan is a short-lived process whose live heap is small (blocks are
	// scanned and dropped); collecting garbage before the heap reaches a
	// few hundred megabytes only costs time (concurrent marking slows the
	// regex engine through write barriers). The limit still bounds memory
	// on a long history scan.
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(memoryLimit)
	// gitleaks logs to stderr through a package-global zerolog logger;
	// the light side reads only the last stderr line, which must be ours.
	logging.Logger = zerolog.Nop()

	findings, err := scanRequest(wire.NewDecoder(stdin), nil)
	if err != nil {
		return fail(err)
	}
	res.Findings = findings
	if err := writeResult(stdout, res); err != nil {
		fmt.Fprintf(stderr, "swarm-guard-secrets: cannot write the result: %v\n", err)
		return ExitError
	}
	return ExitOK
}

// scanRequest reads one request and its blocks from dec and scans them.
// A scan server passes its procs, which a request scanned by workers
// widens while it runs; the process passes nil.
func scanRequest(dec *wire.Decoder, wide *procs) ([]wire.Finding, error) {
	req, err := dec.Request()
	if err != nil {
		return nil, err
	}
	s, err := New(Options{Root: req.Root, GitleaksAllow: req.GitleaksAllow, DecodeDepth: DefaultDecodeDepth, Workers: wide.workers()})
	if err != nil {
		return nil, err
	}
	s.wide = wide
	findings, err := s.Stream(dec.Block)
	if err != nil {
		return nil, err
	}
	if findings == nil {
		findings = []wire.Finding{}
	}
	return findings, nil
}

func writeResult(w io.Writer, res wire.Result) error {
	if line, ok := res.AppendJSON(make([]byte, 0, 64+len(res.Error))); ok {
		// A clean result, written as encoding/json writes it (but for
		// HTML escapes, which decode the same).
		_, err := w.Write(append(line, '\n'))
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}
