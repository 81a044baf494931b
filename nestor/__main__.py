"""Entry point for ``python -m nestor``; see :mod:`nestor.cli`."""

import sys

from .cli import main

sys.exit(main())
