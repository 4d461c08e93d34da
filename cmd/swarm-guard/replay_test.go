package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/swarm-guard/swarm-guard/hooks/history"
)

func init() {
	scriptCommands["gen-history"] = genHistoryMain
}

// genHistoryMain writes a generated history (history.Generate) for the
// replay testscripts: gen-history N ROOT FILE.
func genHistoryMain() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gen-history N ROOT FILE")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[1])
	if err == nil {
		var f *os.File
		if f, err = os.Create(os.Args[3]); err == nil {
			err = history.Generate(f, n, os.Args[2])
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
