"""The `sanskrit` server: the Cologne Sanskrit dictionaries, searchable in any script."""
