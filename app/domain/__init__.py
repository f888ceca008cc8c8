"""Pure logic: no I/O, imports nothing of the app but itself."""
