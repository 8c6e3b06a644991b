"""Allow ``python -m showdown``."""

import sys

from showdown.app.cli import main

sys.exit(main())
