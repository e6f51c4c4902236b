"""``python -m dial_notebook``: the ``dial-notebook`` command (dial_notebook/cli/)."""

import sys

from dial_notebook.cli import main

if __name__ == "__main__":
    sys.exit(main())
