"""Use cases. Each takes the acting user explicitly, checks permission first, then reads/writes in one transaction."""
