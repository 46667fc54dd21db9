"""Text handling shared by all servers: normalization, transliteration, folding."""
