"""SQLite helpers shared by all servers: connections, WAL, migrations, FTS5 queries."""
