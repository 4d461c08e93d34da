package guard

import (
	"mvdan.cc/sh/v3/syntax"
)

// forkBomb reports whether the body of function name starts the function
// itself in a pipeline or in the background: every call then makes two or
// more processes that call it again, without end (:(){ :|:& };:). A
// function that calls itself in sequence (retry(){ cmd || retry; }) runs
// one call at a time, and is not one.
func forkBomb(fn *syntax.FuncDecl, name string) bool {
	found := false
	syntax.Walk(fn.Body, func(n syntax.Node) bool {
		if found {
			return false
		}
		switch x := n.(type) {
		case *syntax.Stmt:
			if x.Background && callsFunction(x, name) {
				found = true
			}
		case *syntax.BinaryCmd:
			if (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) && (callsFunction(x.X, name) || callsFunction(x.Y, name)) {
				found = true
			}
		case *syntax.FuncDecl:
			return x == fn // a nested declaration is its own function
		}
		return !found
	})
	return found
}

// callsFunction reports whether node n runs a simple command named name.
func callsFunction(n syntax.Node, name string) bool {
	found := false
	syntax.Walk(n, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 && c.Args[0].Lit() == name {
			found = true
		}
		return !found
	})
	return found
}
