"""``python -m toolexpect``: the command line."""

import sys

from toolexpect.cli import main

sys.exit(main())
