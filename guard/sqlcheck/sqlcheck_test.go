package sqlcheck

import "testing"

func TestDestructive(t *testing.T) {
	for sql, want := range map[string]string{
		"DROP TABLE users":                                              "DROP TABLE",
		"drop table if exists users":                                    "DROP TABLE",
		"DROP DATABASE app":                                             "DROP DATABASE",
		"DROP SCHEMA public CASCADE":                                    "DROP SCHEMA",
		"DROP TEMPORARY TABLE t":                                        "DROP TABLE",
		"TRUNCATE events":                                               "TRUNCATE",
		"truncate table events restart identity":                        "TRUNCATE",
		"DELETE FROM users":                                             "DELETE without WHERE",
		"delete from users -- where id = 1":                             "DELETE without WHERE",
		"DELETE FROM users /* WHERE id = 1 */":                          "DELETE without WHERE",
		"UPDATE users SET admin = true":                                 "UPDATE without WHERE",
		"UPDATE users SET note = 'WHERE'":                               "UPDATE without WHERE",
		"UPDATE t SET body = $$ where $$":                               "UPDATE without WHERE",
		"WITH x AS (SELECT 1 WHERE true) DELETE FROM t":                 "DELETE without WHERE",
		"EXPLAIN ANALYZE DELETE FROM t":                                 "DELETE without WHERE",
		"select 1; DELETE FROM logs; select 2":                          "DELETE without WHERE",
		"DROP INDEX idx":                                                "",
		"DELETE FROM users WHERE id = 1":                                "",
		"UPDATE users SET a = 1 WHERE id IN (SELECT id FROM x)":         "",
		"SELECT 'DROP TABLE x'":                                         "",
		"-- DROP TABLE x\nSELECT 1":                                     "",
		"INSERT INTO t VALUES (1) ON CONFLICT (id) DO UPDATE SET v = 2": "",
		"EXPLAIN DELETE FROM t":                                         "",
		"SELECT * FROM t FOR UPDATE":                                    "",
		"CREATE TABLE dropped (id int)":                                 "",
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
	f.Fuzz(func(t *testing.T, sql string) {
		_ = Destructive(sql) // must not panic or hang
	})
}
