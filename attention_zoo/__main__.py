"""`python -m attention_zoo ...` runs the `attention-zoo` command."""

import sys

from attention_zoo.applications.cli import main

if __name__ == "__main__":
    sys.exit(main())
