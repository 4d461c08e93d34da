// Command benchtable turns `go test -bench` output into the table of the
// README's Performance section (`make bench` runs it): every benchmark
// that reports a median, and, where its group also timed "empty-go", the
// median as a multiple of that empty Go program measured in the same run.
// Absolute times on shared machines vary threefold between days; the
// multiples are what the README quotes.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
)

var line = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+.*?([\d.]+) (?:median-ms|ms-median)\b`)

type row struct {
	group, name string
	ms          float64
}

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
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
		rows = append(rows, row{group, name, ms})
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(rows) == 0 {
		return fmt.Errorf("no benchmark reported a median")
	}
	fmt.Fprintln(out, "| benchmark | path | median | × empty Go program |")
	fmt.Fprintln(out, "|---|---|---|---|")
	for _, r := range rows {
		ratio := "–"
		if b := base[r.group]; b > 0 {
			ratio = fmt.Sprintf("%.1f×", r.ms/b)
		}
		fmt.Fprintf(out, "| %s | %s | %.2f ms | %s |\n", r.group, r.name, r.ms, ratio)
	}
	return nil
}
