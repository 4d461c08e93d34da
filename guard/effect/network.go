package effect

// Send is a command that sends data off the machine: a network client's
// request or upload (curl, wget, httpie), a raw connection (nc, ssh, ftp),
// a copy to another host (scp, rsync), a DNS lookup or ping whose name
// can carry data, a gist.
type Send struct {
	By string // the client as a reason names it: "curl", "nc", "dig"
	// Hosts are the hosts it connects to, as the command names them, in
	// order: URLs' hosts, nc/ssh/telnet/ftp's host, scp/rsync's remotes;
	// none when it names none (a DNS lookup, a gist, a host only known at
	// run time).
	Hosts []string
	// Secrets are the secret sources whose data flows into what it sends,
	// in the order the command sends them, through any pipeline,
	// substitution, file or encoding step (base64, gzip, openssl enc).
	Secrets []Secret
}

// Secret is one secret source a send carries.
type Secret struct {
	Source Source
	// For are the hosts a login option's password goes to, those of its
	// URLs that are neither this machine nor its local network (LoginOption,
	// PasswordOption); none when its URLs name none.
	For []string
	// Without is the request without this secret, when taking it out is
	// all it takes: the URL without the password of its user-info or
	// the query parameter that held a token. "" when there is none.
	Without string
}

// UnreadCode is code that runs without anyone having read it first: text
// downloaded and run in the same command, or produced only at run time.
type UnreadCode struct {
	By   string // who runs it, as a reason names it: "bash", "eval", "python", "deno run"
	Code string // the code as a reason names it: "downloaded text (the output of curl)", "i.sh", a URL
	How  CodeRun
	// From is where a ScriptWord's text comes from.
	From WordFrom
}

// WordFrom is where the text of a word a shell runs comes from.
type WordFrom int

const (
	// FromRunTime: a variable or a command's output, only known at run
	// time (bash -c "$X").
	FromRunTime WordFrom = iota
	// FromNetwork: text a network client downloads (bash -c "$(curl …)").
	FromNetwork
	// FromProcess: a process substitution's output (source <(…)).
	FromProcess
)

// CodeRun is how unread code reaches what runs it.
type CodeRun int

const (
	// ScriptInput: a shell reads it from standard input (curl … | sh).
	ScriptInput CodeRun = iota
	// ProgramInput: an interpreter reads it from standard input (curl … | python).
	ProgramInput
	// ScriptWord: a shell runs a word only known at run time
	// (bash -c "$(curl …)", eval "$(wget …)", source <(…)); Code says
	// where the word comes from and what it is.
	ScriptWord
	// DownloadedFile: a file this command downloaded earlier is run
	// (curl -o i.sh … && sh i.sh).
	DownloadedFile
	// URL: the runner fetches the code itself (deno run https://…).
	URL
	// CodeWord: an interpreter's code is only known at run time (python -c "$X").
	CodeWord
	// EvalDownload: the code downloads code and evaluates it
	// (python -c "exec(urlopen(…).read())").
	EvalDownload
	// CommandLines: a program runs the lines of its downloaded input as
	// shell commands (sed's e command).
	CommandLines
)

func (Send) isEffect()       {}
func (UnreadCode) isEffect() {}
