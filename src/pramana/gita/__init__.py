"""The `gita` server: Bhagavad Gita lookup, search and matching of garbled Sanskrit."""
