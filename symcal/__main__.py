import sys

from symcal.cli import main

sys.exit(main())
