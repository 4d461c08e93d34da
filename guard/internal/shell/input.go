package shell

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/swarm-guard/swarm-guard/guard/effect"
)

// Input describes what a command reads on standard input, when that is a
// script, SQL or code the command will run.
type Input struct {
	Text     string         // the text, when known
	Dynamic  bool           // contents are only known at run time
	Net      bool           // contents come from a network fetch
	Subst    bool           // text has $(...) parts: their output becomes part of the text
	Expanded bool           // echo or printf of expansions: text chosen at run time
	Paths    []Word         // the file names a command lists (find), as patterns
	Nul      bool           // the names are NUL-separated (find -print0)
	File     bool           // read from a file (cmd < f); its text is not read here
	FilePath Word           // with File: the file, when the redirect names one (a script run as bash < f is read later, as bash f is)
	Desc     string         // for messages: "the output of curl", "a here-document"
	Secret   *effect.Source // where secret text in it comes from (package guard's exfil.go); nil for none
	From     syntax.Node    // the pipeline stage that produces it, for messages
}
