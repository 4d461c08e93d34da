package sqlcheck

import "testing"

func TestDestructive(t *testing.T) {
	for sql, want := range map[string]string{
		"DROP TABLE users":                                                 "DROP TABLE",
		"drop table if exists users":                                       "DROP TABLE",
		"DROP DATABASE app":                                                "DROP DATABASE",
		"DROP SCHEMA public CASCADE":                                       "DROP SCHEMA",
		"DROP TEMPORARY TABLE t":                                           "DROP TABLE",
		"TRUNCATE events":                                                  "TRUNCATE",
		"truncate table events restart identity":                           "TRUNCATE",
		"DELETE FROM users":                                                "DELETE without WHERE",
		"delete from users -- where id = 1":                                "DELETE without WHERE",
		"DELETE FROM users /* WHERE id = 1 */":                             "DELETE without WHERE",
		"UPDATE users SET admin = true":                                    "UPDATE without WHERE",
		"UPDATE users SET note = 'WHERE'":                                  "UPDATE without WHERE",
		"UPDATE t SET body = $$ where $$":                                  "UPDATE without WHERE",
		"WITH x AS (SELECT 1 WHERE true) DELETE FROM t":                    "DELETE without WHERE",
		"EXPLAIN ANALYZE DELETE FROM t":                                    "DELETE without WHERE",
		"select 1; DELETE FROM logs; select 2":                             "DELETE without WHERE",
		"DROP INDEX idx":                                                   "",
		"DELETE FROM users WHERE id = 1":                                   "",
		"UPDATE users SET a = 1 WHERE id IN (SELECT id FROM x)":            "",
		"SELECT 'DROP TABLE x'":                                            "",
		"-- DROP TABLE x\nSELECT 1":                                        "",
		"INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET v = 2":    "",
		"EXPLAIN DELETE FROM t":                                            "",
		"SELECT * FROM t FOR UPDATE":                                       "",
		"CREATE TABLE dropped (id int)":                                    "",
		"DELETE FROM users WHERE 1=1":                                      "DELETE with a WHERE that matches every row",
		"DELETE FROM users WHERE true":                                     "DELETE with a WHERE that matches every row",
		"delete from users where id = 3 or 1 = 1":                          "DELETE with a WHERE that matches every row",
		"UPDATE users SET a = 1 WHERE (id = id)":                           "UPDATE with a WHERE that matches every row",
		"DELETE FROM t WHERE 'a' = 'a'":                                    "DELETE with a WHERE that matches every row",
		"UPDATE users SET name = (SELECT name FROM admins WHERE id = 1)":   "UPDATE without WHERE",
		"WITH d AS (DELETE FROM users RETURNING *) SELECT count(*) FROM d": "DELETE without WHERE",
		"WITH d(n) AS (DELETE FROM users RETURNING 1) SELECT * FROM d":     "DELETE without WHERE",
		"WITH d AS (SELECT 1) UPDATE t SET a = 1 WHERE id = 2":             "",
		"DELETE FROM t WHERE id = 1 RETURNING *":                           "",
		"DELETE FROM t WHERE a >= b":                                       "",
		"DELETE FROM t WHERE created < now() - interval '1 day'":           "",
	} {
		got := ""
		if fs := Destructive(sql); len(fs) > 0 {
			got = fs[0].Why
		}
		if got != want {
			t.Errorf("Destructive(%q) = %q, want %q", sql, got, want)
		}
	}
}

func TestStatementsBlankLiteralsAndComments(t *testing.T) {
	got := Statements("SELECT 'a;b' -- c;d\n; /* x;y */ DELETE FROM t")
	if len(got) != 2 || got[0] != "SELECT ''" || got[1] != "DELETE FROM t" {
		t.Errorf("Statements = %q", got)
	}
}

func FuzzDestructive(f *testing.F) {
	f.Add("DELETE FROM t WHERE a = 'x''y'")
	f.Add("$tag$ unterminated")
	f.Add("/* open comment")
	f.Add("WITH d AS (DELETE FROM t) SELECT 1")
	f.Fuzz(func(t *testing.T, sql string) {
		// Every finding is one of the statements, in order, and the
		// result does not depend on anything but the input.
		stmts := Statements(sql)
		got := Destructive(sql)
		j := 0
		for _, f := range got {
			for j < len(stmts) && stmts[j] != f.Statement {
				j++
			}
			if j == len(stmts) || f.Why == "" {
				t.Fatalf("finding %+v is not one of the statements %q", f, stmts)
			}
		}
		again := Destructive(sql)
		if len(again) != len(got) {
			t.Fatalf("Destructive is not deterministic: %v then %v", got, again)
		}
	})
}

// TestReadOnly: what an MCP database tool may run without an allow: reads,
// and EXPLAIN ANALYZE of a read (it runs the statement it explains).
func TestReadOnly(t *testing.T) {
	for sql, want := range map[string]bool{
		"SELECT count(*) FROM users":                                            true,
		"EXPLAIN SELECT * FROM users":                                           true,
		"EXPLAIN ANALYZE SELECT * FROM users WHERE id = 3":                      true,
		"explain (analyze, buffers) select * from orders":                       true,
		"EXPLAIN ANALYZE WITH t AS (SELECT 1) SELECT * FROM t":                  true,
		"EXPLAIN ANALYZE DELETE FROM users WHERE id = 3":                        false,
		"EXPLAIN ANALYZE UPDATE users SET name = 'x' WHERE id = 3":              false,
		"EXPLAIN (ANALYZE) INSERT INTO t VALUES (1)":                            false,
		"EXPLAIN ANALYZE SELECT * INTO copy FROM users":                         false,
		"EXPLAIN ANALYZE WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d": false,
		"EXPLAIN ANALYZE":                          false,
		"UPDATE users SET name = 'x' WHERE id = 3": false,
	} {
		if got := ReadOnly(sql); got != want {
			t.Errorf("ReadOnly(%q) = %v, want %v", sql, got, want)
		}
	}
}
