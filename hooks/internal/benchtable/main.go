package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/machine"
)

var (
	line  = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+.*?([\d.]+) (?:median-ms|ms-median)\b`)
	ratio = regexp.MustCompile(`\s([\d.]+) x-empty\b`)
)

type row struct {
	group, name string
	ms          float64
	paired      float64 // median of pair-by-pair ratios to the empty program, 0 when not measured
}

// header is what the results file says about the run: when, where and
// what was measured.
type header struct {
	date      time.Time
	machine   string // CPU model and count, load average at the start
	commit    string
	benchtime string
}

// paths says in words what each hook path of BenchmarkHookPaths and
// BenchmarkHookPostOpaqueMonorepo times (cmd/swarm-guard-secrets).
var paths = map[string]string{
	"empty-go":                      "an empty Go program (the unit)",
	"pre-bash-allow":                "PreToolUse Bash, allowed (`go test ./... && git add -A && git commit -m wip`)",
	"pre-bash-writes-nothing":       "PreToolUse Bash of a command that writes nothing (`ls -la`), leaving the record for swarm-guard-post",
	"pre-bash-deny":                 "PreToolUse Bash, denied (`git push --force origin main`)",
	"pre-write-10kb":                "PreToolUse Write of a clean 10 KB Go file, proven clean without the scanner",
	"pre-write-10kb-cold":           "the same, without the background helpers",
	"pre-write-10kb-scanned":        "PreToolUse Write of a clean 10 KB Go file the scanner must read (scan server running)",
	"pre-write-10kb-scanned-cold":   "the same, starting the scanner",
	"pre-mcp":                       "PreToolUse of an MCP tool",
	"post-bash-writes-nothing":      "PostToolUse after `ls -la`, as installed (swarm-guard-post)",
	"post-bash-writes-nothing-full": "the same through the full `swarm-guard hook`",
	"post-bash-redirect":            "PostToolUse after `echo note >> notes.txt`",
	"post-bash-opaque":              "PostToolUse after a command the guard cannot see into (file watcher running)",
	"post-bash-opaque-cold":         "the same, without the watcher (`git status` of the worktree)",
	"post-bash-output-keywords":     "PostToolUse of a Bash call whose output holds scanner keywords",
	"post-write":                    "PostToolUse after a Write",
	"post-mcp-result":               "PostToolUse of an MCP result",
	"worktree-scan":                 "PostToolUse after an opaque command in a 50,000-file repository, without the watcher (`git status` of the whole worktree)",
	"watcher":                       "the same, file watcher running",
}

func main() {
	out := flag.String("o", "", "write the results file here (default: stdout)")
	commit := flag.String("commit", "", "the commit measured")
	benchtime := flag.String("benchtime", "", "the -benchtime of the run")
	flag.Parse()
	h := header{date: time.Now().UTC(), machine: machineLine(), commit: *commit, benchtime: *benchtime}
	var b bytes.Buffer
	if err := run(os.Stdin, &b, h); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	if *out == "" {
		os.Stdout.Write(b.Bytes())
		return
	}
	if err := os.WriteFile(*out, b.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	fmt.Printf("benchtable: wrote %s\n", *out)
}

// machineLine describes this machine: CPU model (from /proc/cpuinfo where
// there is one), number of CPUs, OS and architecture, and the load
// average when the run ended.
func machineLine() string {
	s := machine.Describe()
	if load := machine.Load(); load != "" {
		s += ", load average " + load + " at the end of the run"
	}
	return s
}

func run(in io.Reader, out io.Writer, h header) error {
	var rows []row
	base := map[string]float64{}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		ms, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			continue
		}
		group, name := m[1], ""
		if i := strings.LastIndex(m[1], "/"); i >= 0 {
			group, name = m[1][:i], m[1][i+1:]
		}
		if name == "empty-go" {
			base[group] = ms
		}
		r := row{group: group, name: name, ms: ms}
		if m := ratio.FindStringSubmatch(sc.Text()); m != nil {
			r.paired, _ = strconv.ParseFloat(m[1], 64)
		}
		rows = append(rows, r)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("no benchmark reported a median")
	}
	fmt.Fprintln(out, "# Benchmarks")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Written by `make bench` (how it measures: [performance.md](performance.md)); do not edit by hand.")
	fmt.Fprintln(out)
	fmt.Fprintf(out, "- date: %s\n", h.date.Format("2006-01-02 15:04 UTC"))
	fmt.Fprintf(out, "- machine: %s\n", h.machine)
	if h.commit != "" {
		fmt.Fprintf(out, "- commit: %s\n", h.commit)
	}
	if h.benchtime != "" {
		fmt.Fprintf(out, "- benchtime: %s\n", h.benchtime)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| benchmark | path | what it times | median | × empty Go program |")
	fmt.Fprintln(out, "|---|---|---|---|---|")
	for _, r := range rows {
		x := "–"
		switch b := base[r.group]; {
		case r.paired > 0:
			x = fmt.Sprintf("%.1f×", r.paired)
		case b > 0:
			x = fmt.Sprintf("%.1f×", r.ms/b)
		}
		fmt.Fprintf(out, "| %s | %s | %s | %.2f ms | %s |\n", r.group, r.name, paths[r.name], r.ms, x)
	}
	return nil
}
