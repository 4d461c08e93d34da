// Package sqlcheck finds destructive SQL statements: DROP TABLE, DROP
// DATABASE, DROP SCHEMA, TRUNCATE, and DELETE or UPDATE without a WHERE
// clause. It reads SQL text only, never connects to anything, and treats
// comments and string literals as what they are: not code.
package sqlcheck
