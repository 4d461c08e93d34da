package effect

// SQL is SQL that a database client (psql -c, sqlite3 db '…', statements
// fed to mysql's input), a program's code or an MCP database tool runs.
// The shell and the MCP door build the same value, so one rule decides
// both.
type SQL struct {
	// By names who runs it, as a reason says it: "psql -c/-e",
	// "sqlite3 argument", "MCP server db, tool query".
	By string
	// Text is the SQL. Parts only known at run time are already replaced
	// by a placeholder identifier, so they read as a name, never as a
	// WHERE clause that is not there.
	Text string
	// Destructive are the statements of Text that drop or empty tables or
	// change every row (guard/internal/sqlcheck's reading), in order. The tool code
	// reads the SQL once; the MCP door also needs it for the call's access.
	Destructive []Statement
}

// Statement is one SQL statement.
type Statement struct {
	Text string // comments and literals blanked, whitespace folded
	Why  string // what makes it destructive: "DROP TABLE", "DELETE without WHERE"
}

// DataWipe is a command that removes a database's data wholesale without
// SQL the guard reads: dropdb, mysqladmin drop, a framework task (rails
// db:drop, prisma migrate reset), redis-cli FLUSHALL, a mongosh drop.
type DataWipe struct {
	// Tool is the command as a reason names it: "dropdb",
	// "mysqladmin drop", "rails db:drop", "redis-cli FLUSHALL", "mongosh".
	Tool string
	What Wiped
}

// Wiped is what a DataWipe removes.
type Wiped int

const (
	WholeDatabase Wiped = iota // dropdb, mysqladmin drop
	FrameworkData              // a framework task that drops or wipes the database's data
	EveryKey                   // redis-cli FLUSHALL/FLUSHDB as an argument
	EveryKeyInput              // FLUSHALL/FLUSHDB in redis-cli's input
	ChosenKeys                 // DEL/UNLINK of keys only known at run time (redis-cli keys 'x*' | xargs redis-cli del)
	Documents                  // a collection or database dropped, or every document deleted
)

func (SQL) isEffect()      {}
func (DataWipe) isEffect() {}
