"""``python -m cli``: the same as the ``swissbot`` command."""

import sys

from cli.main import main

# Guarded: importing ``cli.__main__`` (a tool walking the package, multiprocessing's spawn
# re-importing the main module) must not run the command line and exit.
if __name__ == "__main__":
    sys.exit(main())
