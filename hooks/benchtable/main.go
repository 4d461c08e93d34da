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

var (
	line  = regexp.MustCompile(`^Benchmark(\S+?)(?:-\d+)?\s+\d+\s+.*?([\d.]+) (?:median-ms|ms-median)\b`)
	ratio = regexp.MustCompile(`\s([\d.]+) x-empty\b`)
)

type row struct {
	group, name string
	ms          float64
	paired      float64 // median of pair-by-pair ratios to the empty program, 0 when not measured
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
	fmt.Fprintln(out, "| benchmark | path | median | × empty Go program |")
	fmt.Fprintln(out, "|---|---|---|---|")
	for _, r := range rows {
		x := "–"
		switch b := base[r.group]; {
		case r.paired > 0:
			x = fmt.Sprintf("%.1f×", r.paired)
		case b > 0:
			x = fmt.Sprintf("%.1f×", r.ms/b)
		}
		fmt.Fprintf(out, "| %s | %s | %.2f ms | %s |\n", r.group, r.name, r.ms, x)
	}
	return nil
}
