"""``python -m cli``: the same as the ``swissbot`` command."""

import sys

from cli.main import main

sys.exit(main())
