"""Allow ``python -m showdown``."""

import sys

from showdown.cli import main

sys.exit(main())
