"""`python3 -m gateway.cli`: the same as the `fabric` command."""

import sys

from gateway.cli import main

sys.exit(main())
