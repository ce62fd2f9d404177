"""The exit codes of every ``swissbot`` sub-command (documented in README)."""

EXIT_OK = 0
EXIT_NO_PAIRING = 1
EXIT_USAGE = 2
EXIT_INVALID_INPUT = 3
EXIT_MISSING_EXTRA = 5  # an optional dependency of this sub-command is not installed
